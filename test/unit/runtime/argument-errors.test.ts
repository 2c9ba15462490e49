import { Ajv2020, type ErrorObject } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { breachMessage, describeBreaches, exampleOf } from '../../../templates/runtime/arguments/argument-errors.js';
import { FORMAT_EXAMPLES, FORMATS } from '../../../templates/runtime/arguments/formats.js';
import { CHECKED_FORMATS } from '../../../src/plan/arguments/validation-view.js';

const defs = {
  Config: {
    type: 'object',
    properties: { url: { type: 'string', format: 'uri' }, retries: { type: 'integer', maximum: 5 } },
    required: ['url'],
    additionalProperties: false,
  },
  Kind: {
    anyOf: [
      { type: 'string', enum: ['push', 'pull'] },
      { type: 'object', required: ['name'], properties: { name: { type: 'string' } } },
    ],
  },
};

/** Validates as the generated server does (compile-arguments.ts) and explains the errors. */
function breaches(schema: object, data: Record<string, unknown>) {
  const ajv = new Ajv2020({ strict: false, allErrors: true, verbose: true, validateSchema: false, multipleOfPrecision: 9 });
  for (const [name, format] of Object.entries(FORMATS)) ajv.addFormat(name, format);
  ajv.addSchema({ $id: 'urn:test:arguments', $defs: defs, actions: [schema] });
  const validate = ajv.getSchema('urn:test:arguments#/actions/0');
  if (!validate) throw new Error('no validator');
  return validate(data) ? [] : describeBreaches((validate.errors ?? []) as ErrorObject[], data, defs);
}

describe('argument breaches', () => {
  it('name the path, the rule and a valid example', () => {
    const found = breaches(
      {
        properties: {
          replay_id: { type: 'string', pattern: '^[0-9a-f]{32}$', examples: ['0123456789abcdef0123456789abcdef'] },
          per_page: { type: 'integer', minimum: 1, maximum: 100 },
          body: { type: 'object', properties: { config: { $ref: '#/$defs/Config' } } },
          tags: { type: 'array', items: { type: 'string', maxLength: 3 } },
        },
      },
      { replay_id: 'XYZ', per_page: 500, body: { config: { retries: 9, extra: 1 } }, tags: ['ok', 'toolong'] },
    );
    expect(found).toEqual([
      { path: 'replay_id', rule: 'must match the pattern ^[0-9a-f]{32}$', example: '0123456789abcdef0123456789abcdef' },
      { path: 'per_page', rule: 'must be at most 100', example: 100 },
      { path: 'body.config.url', rule: 'is required', example: 'https://example.com/' },
      { path: 'body.config.extra', rule: 'is not a field body.config takes; it takes url, retries' },
      { path: 'body.config.retries', rule: 'must be at most 5', example: 5 },
      { path: 'tags[1]', rule: 'must have at most 3 characters', example: 'too' },
    ]);
  });

  it('answer a union with one line naming its variants', () => {
    expect(breaches({ properties: { kind: { $ref: '#/$defs/Kind' } } }, { kind: 'merge' })).toEqual([
      { path: 'kind', rule: 'must be one of "push", "pull", or an object with name', example: 'push' },
    ]);
  });

  it('name the fields a body needs together', () => {
    const alternatives = { anyOf: [{ required: ['file_ids'] }, { required: ['files'] }] };
    expect(breaches(alternatives, {})).toEqual([{ path: 'arguments', rule: 'need file_ids, or files' }]);
    expect(breaches({ dependentRequired: { color: ['name'] } }, { color: 'red' })).toEqual([
      { path: 'name', rule: 'is required when color is sent' },
    ]);
  });

  it('read as a refusal that says nothing was sent, bounded', () => {
    const many = Array.from({ length: 10 }, (_, index) => ({ path: `a${index}`, rule: 'must be a string', example: 'x' }));
    const text = breachMessage('repos_write', 'create', many);
    expect(text.split('\n')[0]).toBe(
      'Nothing was sent to the API: the arguments of action create of repos_write break 10 rules of the API description.',
    );
    expect(text).toContain('- a0 must be a string. For example: "x".');
    expect(text).toContain('- … and 2 more.');
    expect(text).not.toContain('a9');
  });

  it('give examples that keep the rule they are given for', () => {
    const ajv = new Ajv2020({ strict: false, validateSchema: false });
    for (const [name, format] of Object.entries(FORMATS)) ajv.addFormat(name, format);
    const schemas = [
      { type: 'string', minLength: 8 },
      { type: 'string', maxLength: 2 },
      { type: 'integer', exclusiveMinimum: 10, multipleOf: 4 },
      { type: 'array', minItems: 2, items: { type: 'string', enum: ['a'] } },
      { type: 'object', required: ['when'], properties: { when: { type: 'string', format: 'date' } } },
      ...[...CHECKED_FORMATS].map((format) => ({ type: FORMATS[format]?.type, format })),
    ];
    for (const schema of schemas) expect(ajv.validate(schema, exampleOf(schema, {})), JSON.stringify(schema)).toBe(true);
  });
});

describe('formats', () => {
  it('cover exactly the formats the planner keeps', () => {
    expect(Object.keys(FORMATS).sort()).toEqual([...CHECKED_FORMATS].sort());
    expect(Object.keys(FORMAT_EXAMPLES).sort()).toEqual([...CHECKED_FORMATS].sort());
  });

  const cases: Array<[string, unknown[], unknown[]]> = [
    [
      'date-time',
      ['2024-01-31T12:00:00Z', '2024-01-31T12:00:00.123+02:00', '2024-02-29t00:00:00z', '2024-01-31T12:00', '2024-01-31 12:00:00'],
      ['2024-13-01T00:00:00Z', '2023-02-29T00:00:00Z', '2024-01-31', 'yesterday', '2024-01-31T25:00:00Z'],
    ],
    ['date', ['2024-01-31', '2000-02-29'], ['2024-1-31', '1900-02-29', '2024-01-31T00:00:00Z']],
    ['time', ['12:00:00Z', '23:59:60', '08:30'], ['24:00:00', '12:60']],
    ['email', ['user@example.com', 'a.b+c@sub.example.org'], ['user', 'user @example.com', 'a@b@c']],
    [
      'uri',
      ['https://example.com/x?y=1', 'mailto:user@example.com', 'urn:isbn:0451450523'],
      ['example.com', '/relative', 'https://exa mple.com'],
    ],
    [
      'uuid',
      ['123e4567-e89b-12d3-a456-426614174000', 'urn:uuid:123E4567-E89B-12D3-A456-426614174000'],
      ['123e4567e89b12d3a456426614174000', 'x'],
    ],
    ['ipv4', ['192.0.2.1', '0.0.0.0'], ['256.0.0.1', '1.2.3', '01.2.3.4.5']],
    ['ipv6', ['2001:db8::1', '::1', '::', '::ffff:192.0.2.1', '1:2:3:4:5:6:7:8'], ['1:2:3:4:5:6:7:8:9', '2001:db8:::1', 'g::1', '1::2::3']],
    ['byte', ['aGVsbG8=', 'aGVsbG8', 'a-_b'], ['hello world', 'é']],
    ['int32', [0, -2147483648, 2147483647], [2147483648, 1.5]],
    ['int64', [0, 2 ** 53], [1.5]],
  ];
  it.each(cases)('%s accepts what APIs accept and refuses the rest', (name, valid, invalid) => {
    const format = FORMATS[name];
    if (!format) throw new Error(name);
    const check = format.validate as (value: unknown) => boolean;
    for (const value of valid) expect(check(value), String(value)).toBe(true);
    for (const value of invalid) expect(check(value), String(value)).toBe(false);
  });
});
