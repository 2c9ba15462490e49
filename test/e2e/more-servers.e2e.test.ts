import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { vendorEntry } from '../helpers/corpus.js';
import { fixtureSpec } from '../helpers/paths.js';
import {
  buildProject,
  connectHttp,
  connectStdio,
  generateProject,
  linkDependencies,
  startHttpServer,
  tempDir,
  textOf,
} from '../helpers/project.js';
import { startUpstream, type Upstream } from '../helpers/upstream.js';

/** Generates and builds a corpus description, with a recording upstream standing in for the API. */
async function prepare(entry: string, name: string): Promise<{ dir: string; upstream: Upstream }> {
  const dir = await tempDir(name);
  await generateProject({
    spec: entry.endsWith('.yaml') || entry.endsWith('.json') ? fixtureSpec(entry) : vendorEntry(entry).spec,
    out: dir,
  });
  await linkDependencies(dir);
  await buildProject(dir);
  return { dir, upstream: await startUpstream() };
}

describe('Redocly Museum (OpenAPI 3.1) over HTTP', () => {
  let dir: string;
  let upstream: Upstream;
  let client: Client;
  let stop: () => Promise<void>;

  beforeAll(async () => {
    ({ dir, upstream } = await prepare('redocly-museum.yaml', 'museum-e2e'));
    const server = await startHttpServer(dir, {
      REDOCLY_MUSEUM_BASE_URL: upstream.url,
      REDOCLY_MUSEUM_MUSEUM_PLACEHOLDER_AUTH_USERNAME: 'curator',
      REDOCLY_MUSEUM_MUSEUM_PLACEHOLDER_AUTH_PASSWORD: 'pa55-word',
    });
    client = await connectHttp(server.url);
    stop = server.stop;
  });
  afterAll(async () => {
    await client?.close();
    await stop?.();
    await upstream?.close();
  });

  it('sends basic auth and query parameters, and returns JSON as structured content', async () => {
    upstream.requests.length = 0;
    upstream.reply = () => ({ body: JSON.stringify([{ date: '2024-01-02', timeOpen: '09:00', timeClose: '18:00' }]) });
    const result = await client.callTool({ name: 'museum_hours_read', arguments: { startDate: '2024-01-02', limit: 5 } });
    expect(result.isError ?? false, textOf(result)).toBe(false);
    expect(result.structuredContent).toEqual([{ date: '2024-01-02', timeOpen: '09:00', timeClose: '18:00' }]);
    const [request] = upstream.requests;
    expect(request?.path).toBe('/museum-hours');
    expect(request?.query.get('startDate')).toBe('2024-01-02');
    expect(request?.query.get('limit')).toBe('5');
    expect(request?.headers['authorization']).toBe(`Basic ${Buffer.from('curator:pa55-word').toString('base64')}`);
  });

  it('returns an image response as image content', async () => {
    upstream.reply = () => ({ headers: { 'content-type': 'image/png' }, body: Buffer.from([0x89, 0x50, 0x4e, 0x47]) });
    const result = await client.callTool({ name: 'tickets_qr_read', arguments: { ticketId: 'a54a57ca-36f8-421b-a6b4-2e8f26858a4c' } });
    expect(result.content).toEqual([
      { type: 'image', mimeType: 'image/png', data: Buffer.from([0x89, 0x50, 0x4e, 0x47]).toString('base64') },
    ]);
  });

  it('sends a PATCH with a JSON body built from flattened arguments', async () => {
    upstream.requests.length = 0;
    upstream.reply = () => ({ body: '{}' });
    const eventId = 'dad4bce8-f5cb-4078-a211-995864315e39';
    const result = await client.callTool({
      name: 'special_events_write',
      arguments: { action: 'update', eventId, name: 'Night at the museum', price: 12.5 },
    });
    expect(result.isError ?? false, textOf(result)).toBe(false);
    const [request] = upstream.requests;
    expect(request?.method).toBe('PATCH');
    expect(request?.path).toBe(`/special-events/${eventId}`);
    expect(JSON.parse(request?.body.toString() ?? '{}')).toEqual({ name: 'Night at the museum', price: 12.5 });
  });

  it('maps an RFC 9457 problem to an actionable error', async () => {
    upstream.reply = () => ({
      status: 400,
      headers: { 'content-type': 'application/problem+json' },
      body: JSON.stringify({
        type: 'about:blank',
        title: 'Bad Request',
        detail: 'startDate must not be in the past',
        errors: [{ field: 'startDate' }],
      }),
    });
    const result = await client.callTool({ name: 'museum_hours_read', arguments: { startDate: '2000-01-01' } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/400.*startDate must not be in the past.*It points at: startDate/s);
  });
});

describe('Uber (Swagger 2.0, no operationIds) over stdio', () => {
  let dir: string;
  let upstream: Upstream;
  let client: Client;

  beforeAll(async () => {
    ({ dir, upstream } = await prepare('oai-uber.json', 'uber-e2e'));
    client = await connectStdio(dir, { UBER_BASE_URL: `${upstream.url}/v1` });
  });
  afterAll(async () => {
    await client?.close();
    await upstream?.close();
  });

  it('names tools from paths and sends the query the operation declares', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['estimates_price_read', 'estimates_time_read']));
    upstream.requests.length = 0;
    upstream.reply = () => ({ body: JSON.stringify({ prices: [] }) });
    const result = await client.callTool({
      name: 'estimates_price_read',
      arguments: { start_latitude: 37.77, start_longitude: -122.41, end_latitude: 37.8, end_longitude: -122.27 },
    });
    expect(result.isError ?? false, textOf(result)).toBe(false);
    expect(upstream.requests[0]?.path).toBe('/v1/estimates/price');
    expect(Object.fromEntries(upstream.requests[0]!.query)).toEqual({
      start_latitude: '37.77',
      start_longitude: '-122.41',
      end_latitude: '37.8',
      end_longitude: '-122.27',
    });
  });
});

describe('Slack (Swagger 2.0 formData) over stdio', () => {
  let dir: string;
  let upstream: Upstream;
  let client: Client;

  beforeAll(async () => {
    ({ dir, upstream } = await prepare('slack-web', 'slack-e2e'));
    client = await connectStdio(dir, { SLACK_BASE_URL: `${upstream.url}/api`, SLACK_AUTH_ACCESS_TOKEN: 'xoxb-0123456789' });
  });
  afterAll(async () => {
    await client?.close();
    await upstream?.close();
  });

  it('posts a message as a form body with the bearer token, never asking the model for the token', async () => {
    const { tools } = await client.listTools();
    const tool = tools.find((candidate) => JSON.stringify(candidate.inputSchema).includes('"post_message"'));
    expect(tool).toBeDefined();
    expect(JSON.stringify(tool?.inputSchema)).not.toMatch(/"token"/);
    upstream.requests.length = 0;
    upstream.reply = () => ({ body: JSON.stringify({ ok: true, ts: '1.2' }) });
    const result = await client.callTool({
      name: tool!.name,
      arguments: { action: 'post_message', channel: 'C123', text: 'hello & welcome' },
    });
    expect(result.isError ?? false, textOf(result)).toBe(false);
    const [request] = upstream.requests;
    expect(request?.method).toBe('POST');
    expect(request?.path).toBe('/api/chat.postMessage');
    expect(request?.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(new URLSearchParams(request?.body.toString()).get('text')).toBe('hello & welcome');
    expect(request?.headers['authorization']).toBe('Bearer xoxb-0123456789');
  });
});
