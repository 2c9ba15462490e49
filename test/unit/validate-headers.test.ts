import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../src/kernel/json.js';
import { headerViolations, MAX_HEADER_INTEGER } from '../../src/plan/headers/validate-headers.js';

const object = (properties: JsonObject, extra: JsonObject = {}): JsonObject => ({ type: 'object', properties, ...extra });
const messages = (schema: JsonObject) => headerViolations(schema).map((violation) => `${violation.path}: ${violation.message}`);

/** The SEP-2243 rules, case by case: what the SDK warns about and the 2.4.0 client drops a tool for. */
describe('headerViolations', () => {
  it('accepts string, boolean and bounded integer markings on a pure properties chain, nested too', () => {
    const schema = object({
      region: { type: 'string', 'x-mcp-header': 'Region' },
      dry: { type: 'boolean', 'x-mcp-header': 'Dry-Run' },
      limit: { type: 'integer', minimum: 0, maximum: 100, 'x-mcp-header': 'Limit' },
      scope: object({ tenant: { type: 'string', 'x-mcp-header': 'Tenant' } }),
    });
    expect(messages(schema)).toEqual([]);
  });

  it('refuses markings off the properties chain', () => {
    const marked = { type: 'string', 'x-mcp-header': 'X' };
    for (const [keyword, value] of [
      ['items', marked],
      ['anyOf', [marked]],
      ['allOf', [object({ a: marked })]],
      ['additionalProperties', marked],
      ['$defs', { Region: marked }],
      ['if', marked],
      ['patternProperties', { '^a': marked }],
    ] as const) {
      expect(messages(object({}, { [keyword]: value as JsonObject })).join(), keyword).toMatch(/chain of `properties`/);
    }
    expect(messages({ type: 'object', 'x-mcp-header': 'Root' })).toEqual([
      '<root>: x-mcp-header is only allowed on properties reached by a chain of `properties` keys from the root',
      '<root>: x-mcp-header needs type string, integer or boolean, not "object"',
    ]);
  });

  it('refuses names that are not tokens, and duplicates ignoring case', () => {
    expect(messages(object({ a: { type: 'string', 'x-mcp-header': 'My Region' } }))).toEqual([
      'a: x-mcp-header "My Region" is not an RFC 9110 token',
    ]);
    expect(messages(object({ a: { type: 'string', 'x-mcp-header': '' } }))).toEqual(['a: x-mcp-header must be a non-empty string']);
    expect(messages(object({ a: { type: 'string', 'x-mcp-header': 'Region' }, b: { type: 'string', 'x-mcp-header': 'REGION' } }))).toEqual([
      'b: x-mcp-header "REGION" repeats "Region" (header names ignore case)',
    ]);
  });

  it('refuses types other than exactly string, integer or boolean, $ref, and unbounded integers', () => {
    expect(messages(object({ a: { type: 'number', 'x-mcp-header': 'A' } }))).toEqual([
      'a: x-mcp-header needs type string, integer or boolean, not "number"',
    ]);
    expect(messages(object({ a: { type: ['string', 'null'], 'x-mcp-header': 'A' } }))[0]).toMatch(/not \["string","null"\]/);
    expect(messages(object({ a: { enum: ['x'], 'x-mcp-header': 'A' } }))[0]).toMatch(/not null/);
    expect(messages(object({ a: { $ref: '#/$defs/A', type: 'string', 'x-mcp-header': 'A' } }))[0]).toMatch(/must not use \$ref/);
    expect(messages(object({ a: { type: 'integer', 'x-mcp-header': 'A' } }))[0]).toMatch(/bounded/);
    expect(messages(object({ a: { type: 'integer', minimum: 0, maximum: MAX_HEADER_INTEGER + 2, 'x-mcp-header': 'A' } }))[0]).toMatch(
      /bounded/,
    );
    expect(messages(object({ a: { type: 'integer', exclusiveMinimum: 0, maximum: 10, 'x-mcp-header': 'A' } }))).toEqual([]);
  });
});
