import { fromJsonSchema } from '@modelcontextprotocol/server';
import type { JsonSchemaType } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { conciseValue } from '../../../templates/runtime/results/concise.js';
import type { UpstreamResponse } from '../../../templates/runtime/requests/http.js';
import { conformOutput } from '../../../templates/runtime/results/output.js';
import { boundJson, successResult } from '../../../templates/runtime/results/results.js';
import type { ActionRoute } from '../../../templates/runtime/core/types.js';

const tickets = [
  { id: 1, name: 'a', status: 'open', description: 'long text', owner: { id: 'u1' }, tags: ['x'] },
  { id: 2, name: 'b', status: 'closed', description: 'more', owner: { id: 'u2' }, tags: [] },
];

function response(body: unknown, headers: Record<string, string> = {}): UpstreamResponse {
  return {
    status: 200,
    statusText: 'OK',
    headers: new Headers({ 'content-type': 'application/json', ...headers }),
    body: Buffer.from(JSON.stringify(body)),
    truncated: false,
    url: new URL('https://api.example.com/tickets?limit=2'),
  };
}

const route: ActionRoute = {
  operationId: 'list',
  method: 'get',
  path: '/tickets',
  arguments: [{ arg: 'cursor', in: 'query', name: 'cursor', style: 'form', explode: true }],
  required: [],
  security: [],
  accepts: ['application/json'],
  pagination: { arguments: ['cursor'], nextFields: ['next_cursor'], nextLinkHeader: true },
  concise: { lists: [{ field: 'data', keep: ['id', 'name', 'status'] }] },
};
const options = { maxResultTokens: 10_000, toolName: 'tickets_read', actionName: 'list' };
const texts = (result: { content: Array<{ type: string; text?: string }> }) => result.content.map((block) => block.text ?? '');

describe('concise and detailed results', () => {
  it('keep only the listed fields of each item by default, and say how to get the rest', () => {
    const result = successResult(response({ data: tickets, next_cursor: 'c2' }), route, options);
    expect(result.structuredContent).toEqual({
      data: [
        { id: 1, name: 'a', status: 'open' },
        { id: 2, name: 'b', status: 'closed' },
      ],
      next_cursor: 'c2',
    });
    expect(texts(result).join(' ')).toContain('response_format "detailed"');
    expect(JSON.parse(texts(result)[0] ?? '')).toEqual(result.structuredContent);
  });

  it('return every field when asked for detailed', () => {
    const result = successResult(response({ data: tickets }), route, { ...options, responseFormat: 'detailed' });
    expect(result.structuredContent).toEqual({ data: tickets });
  });

  it('keep an item whole when it has none of the fields (the API drifted)', () => {
    expect(conciseValue([{ other: 1 }], { lists: [{ keep: ['id'] }] })).toEqual({ value: [{ other: 1 }] });
  });
});

describe('pagination notes', () => {
  it('turn a Link rel=next header into the arguments of the next call', () => {
    const result = successResult(
      response({ data: [] }, { link: '<https://api.example.com/tickets?cursor=abc&limit=2>; rel="next"' }),
      route,
      options,
    );
    expect(texts(result)).toContain('More results: call again with cursor="abc".');
  });

  it('say which argument takes the next page a body names', () => {
    const result = successResult(response({ data: [], next_cursor: 'c9' }), route, options);
    expect(texts(result)).toContain('More results: call again with cursor="c9".');
  });

  it('after has_more, name the last item’s id for an after-style argument (Stripe’s starting_after)', () => {
    const stripe: ActionRoute = {
      ...route,
      arguments: ['limit', 'starting_after', 'ending_before'].map((name) => ({
        arg: name,
        in: 'query' as const,
        name,
        style: 'form' as const,
        explode: true,
      })),
      pagination: { arguments: ['ending_before', 'limit', 'starting_after'], nextFields: ['has_more'], nextLinkHeader: false },
      concise: undefined,
    };
    const result = successResult(response({ data: [{ id: 'ch_1' }, { id: 'ch_2' }], has_more: true }), stripe, options);
    expect(texts(result)).toContain('More results: call again with starting_after="ch_2" (the id of the last item).');
  });

  it('map a next-page URL in the body to the action’s arguments', () => {
    const result = successResult(
      response({ data: [], next: '/tickets?cursor=d4&limit=2' }),
      { ...route, pagination: { arguments: ['cursor'], nextFields: ['next'], nextLinkHeader: false } },
      options,
    );
    expect(texts(result)).toContain('More results: call again with cursor="d4".');
  });
});

describe('result budget', () => {
  it('cuts the largest list to what fits and says how many items are shown', () => {
    const many = { data: Array.from({ length: 500 }, (_, index) => ({ id: index, text: 'x'.repeat(100) })) };
    const { value, note } = boundJson(many, 5_000, { arguments: ['cursor', 'per_page'], nextFields: [], nextLinkHeader: true });
    expect(JSON.stringify(value).length).toBeLessThanOrEqual(5_000);
    expect(note).toMatch(/^The result was cut to fit the result budget: \d+ of 500 items are shown/);
    expect(note).toContain(
      'Ask for fewer items per page with per_page, or get the next page with cursor, or narrow the list with filters.',
    );
  });

  it('does not advise paging for a list the API does not page', () => {
    const many = { data: Array.from({ length: 500 }, (_, index) => ({ id: index, text: 'x'.repeat(100) })) };
    const { note } = boundJson(many, 5_000);
    expect(note).toContain("The API does not page this list: narrow it with the action's filters");
    expect(note).not.toContain('per page');
  });
});

describe('output conformance', () => {
  const schema = fromJsonSchema<unknown>({
    type: 'object',
    properties: { id: { type: ['number', 'null'] }, data: { type: ['array', 'null'] } },
  } as JsonSchemaType);

  it('passes conforming structured content through, and adds {} when a result has none', async () => {
    expect((await conformOutput({ content: [], structuredContent: { id: 1 } }, schema)).structuredContent).toEqual({ id: 1 });
    expect((await conformOutput({ content: [{ type: 'text', text: 'Done' }] }, schema)).structuredContent).toEqual({});
  });

  it('falls back to {} with a note when the API drifted from the description, keeping the data in the text', async () => {
    const drifted = await conformOutput(
      { content: [{ type: 'text', text: '{"id":"seven"}' }], structuredContent: { id: 'seven' } },
      schema,
    );
    expect(drifted.isError).toBeUndefined();
    expect(drifted.structuredContent).toEqual({});
    expect(texts(drifted as { content: Array<{ type: string; text?: string }> })).toEqual([
      '{"id":"seven"}',
      expect.stringMatching(/does not have the shape the API description gives \(.*id.* must be number/),
    ]);
  });

  it('leaves error results alone', async () => {
    const error = { content: [{ type: 'text' as const, text: 'failed' }], isError: true };
    expect(await conformOutput(error, schema)).toBe(error);
  });
});

describe('upstream errors', () => {
  it('name the argument an error body blames, also when its name holds a dot (AEM json.maximumresults)', async () => {
    const { httpErrorResult } = await import('../../../templates/runtime/results/upstream-errors.js');
    const blamedRoute: ActionRoute = {
      ...route,
      method: 'post',
      arguments: [
        { arg: 'json.maximumresults', in: 'query', name: 'json.maximumresults', style: 'form', explode: true },
        { arg: 'name', in: 'query', name: 'name', style: 'form', explode: true },
      ],
    };
    const failure = (field: string) =>
      httpErrorResult(
        { ...response({ errors: [{ field, message: 'is not valid' }] }), status: 400, statusText: 'Bad Request' },
        { toolName: 'config_write', actionName: '', route: blamedRoute, siblings: [] },
      );
    const text = (result: { content: Array<{ type: string; text?: string }> }) => result.content.map((block) => block.text).join(' ');
    expect(text(failure('json.maximumresults'))).toContain('It points at: json.maximumresults.');
    expect(text(failure('items.0.name'))).toContain('It points at: name.');
  });
});

describe('credentials an upstream echoes with JSON escapes', () => {
  it('are redacted after decoding, in content and structured content, keys too', async () => {
    const { registerSecret } = await import('../../../templates/runtime/core/redact.js');
    const { httpErrorResult } = await import('../../../templates/runtime/results/upstream-errors.js');
    registerSecret('CANARY-escaped-7f3a9c');
    // What .NET, Go and Python encoders write: a letter and `&` as \u escapes, which no byte scrubbing sees.
    const body = '{"echo":"\\u0043ANARY-escaped-7f3a9c","list":["x\\u0043ANARY-escaped-7f3a9cx"],"\\u0043ANARY-escaped-7f3a9c":1}';
    const echoed: UpstreamResponse = { ...response(null), body: Buffer.from(body) };
    const result = successResult(echoed, { ...route, concise: undefined }, options);
    expect(JSON.stringify(result)).not.toContain('CANARY-escaped-7f3a9c');
    expect(result.structuredContent).toEqual({ echo: '[redacted]', list: ['x[redacted]x'], '[redacted]': 1 });
    const failed = httpErrorResult(
      { ...echoed, status: 400, statusText: 'Bad Request', body: Buffer.from('{"message":"bad key \\u0043ANARY-escaped-7f3a9c"}') },
      { toolName: 'tickets_read', actionName: 'list', route, siblings: [] },
    );
    expect(JSON.stringify(failed)).not.toContain('CANARY-escaped-7f3a9c');
    expect(JSON.stringify(failed)).toContain('bad key [redacted]');
  });
});
