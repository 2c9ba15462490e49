import { describe, expect, it } from 'vitest';
import { sampleValue } from '../../../src/emit/sample-values.js';
import { sampleFromPattern } from '../../../src/plan/arguments/pattern-sample.js';

describe('sample values', () => {
  it('honours formats, patterns, bounds and enums', () => {
    expect(sampleValue({ type: 'string', format: 'date' }, {})).toBe('2024-01-02');
    expect(sampleValue({ type: 'string', pattern: '^AC[0-9a-f]{32}$' }, {})).toMatch(/^AC[0-9a-f]{32}$/);
    expect(sampleValue({ type: 'integer', minimum: 5, multipleOf: 4 }, {})).toBe(8);
    expect(sampleValue({ type: 'string', minLength: 8, maxLength: 8 }, {})).toHaveLength(8);
    expect(sampleValue({ enum: [null, 'a'] }, {})).toBe('a');
  });

  it('picks 1 where the only bounds are past 32 bits, as routing headers add (UK Parliament int32 IDs)', () => {
    const huge = { minimum: -9007199254740991, maximum: 9007199254740991 };
    expect(sampleValue({ type: 'integer', format: 'int32', ...huge }, {})).toBe(1);
    expect(sampleValue({ type: 'integer', minimum: -10_000_000_000, maximum: -5_000_000_000 }, {})).toBe(-5_000_000_000);
    expect(sampleValue({ type: 'integer', minimum: 0 }, {})).toBe(0);
  });

  it('fills objects up to minProperties, from optional properties and then additional ones (AWS FormatConfig)', () => {
    expect(sampleValue({ type: 'object', minProperties: 1, additionalProperties: { type: 'string' } }, {})).toEqual({ key1: 'sample' });
    expect(
      sampleValue(
        { type: 'object', minProperties: 1, propertyNames: { enum: ['JPEGQuality'] }, additionalProperties: { type: 'string' } },
        {},
      ),
    ).toEqual({ JPEGQuality: 'sample' });
    expect(sampleValue({ type: 'object', minProperties: 1, properties: { a: { type: 'integer' } } }, {})).toEqual({ a: 1 });
  });

  it('reads lazy quantifiers, and gives no value for a pattern no sample matches (AWS ARNs, Azure)', () => {
    const arn = '^arn:aws[-\\w]{0,10}?:detective:[-\\w]{2,20}?:\\d{12}?:graph:[abcdef\\d]{32}?$';
    expect(sampleValue({ type: 'string', pattern: arn }, {})).toMatch(new RegExp(arn, 'u'));
    expect(sampleValue({ type: 'string', pattern: ' ^[-\\w._()]+[^.]$' }, {})).toBeUndefined();
  });

  it('merges allOf parts, so a later part adds required fields without losing the first part’s schemas', () => {
    const defs = {
      Allocation: { type: 'object', properties: { start_date: { type: 'string', format: 'date' }, note: { type: 'string' } } },
    };
    expect(sampleValue({ allOf: [{ $ref: '#/$defs/Allocation' }, { type: 'object', required: ['start_date'] }] }, defs)).toEqual({
      start_date: '2024-01-02',
    });
    // An allOf part that only adds a description does not turn an object into a string.
    expect(
      sampleValue({ allOf: [{ type: 'object', properties: { id: { type: 'string' } }, required: ['id'] }, { description: 'x' }] }, {}),
    ).toEqual({
      id: 'sample',
    });
  });

  it('skips defaults of the wrong type and empty-string defaults', () => {
    expect(sampleValue({ type: 'boolean', default: 'false' }, {})).toBe(true);
    expect(sampleValue({ type: 'string', default: '' }, {})).toBe('sample');
    expect(sampleValue({ type: 'integer', default: 20 }, {})).toBe(20);
  });

  it('fills single-value tags, so a union variant is told apart from the others', () => {
    const defs = {
      Reboot: { type: 'object', additionalProperties: false, properties: { type: { type: 'string', enum: ['ForceReboot'] } } },
      Install: { type: 'object', properties: { type: { const: 'InstallApp' }, appId: { type: 'string' } } },
    };
    expect(sampleValue({ anyOf: [{ $ref: '#/$defs/Reboot' }, { $ref: '#/$defs/Install' }] }, defs)).toEqual({ type: 'ForceReboot' });
  });

  it('samples the surrounding schema together with a required-only variant', () => {
    const schema = {
      type: 'object',
      properties: { image_url: { type: 'string', format: 'uri' }, file_id: { type: 'string' } },
      anyOf: [{ required: ['image_url'] }, { required: ['file_id'] }],
    };
    expect(sampleValue(schema, {})).toEqual({ image_url: 'https://example.com/x' });
  });

  it('gives distinct items where they must be unique (EVE Online solar system pairs)', () => {
    const pair = { type: 'array', minItems: 2, maxItems: 2, uniqueItems: true, items: { type: 'integer', format: 'int32' } };
    expect(sampleValue({ type: 'array', items: pair }, {})).toEqual([[1, 2]]);
    expect(sampleValue({ type: 'array', minItems: 3, uniqueItems: true, items: { type: 'string', enum: ['a', 'b', 'c'] } }, {})).toEqual([
      'a',
      'b',
      'c',
    ]);
    expect(sampleValue({ type: 'array', minItems: 2, uniqueItems: true, items: { type: 'integer', maximum: 1 } }, {})).toBeUndefined();
  });

  it('gives up on strings whose checked format contradicts their pattern', () => {
    expect(sampleValue({ type: 'string', format: 'byte', pattern: '^.{1,1}$' }, {})).toBeUndefined();
    expect(sampleValue({ type: 'string', format: 'date-time', pattern: 'YYYY-MM-DDThh:mm:ssZ' }, {})).toBeUndefined();
    expect(sampleValue({ type: 'string', format: 'int32', pattern: '^[0-9]+$' }, {})).toBe('1');
  });

  it('generates strings from simple patterns', () => {
    expect(sampleFromPattern('^[A-Z]{2}-\\d{3}$')).toBe('AA-111');
    expect(sampleFromPattern('^(?:foo|bar)+$')).toBe('foo');
    expect(sampleFromPattern('^(?=x)')).toBeUndefined();
  });

  it('reads anchors inside groups, and stretches unbounded parts to a minimum length (AWS Textract, Pinpoint)', () => {
    const topic = { type: 'string', pattern: '(^arn:([a-z\\d-]+):sns:[a-zA-Z\\d-]{1,20}:\\w{12}:.+$)', minLength: 20, maxLength: 1024 };
    const role = { type: 'string', pattern: 'arn:\\S+', minLength: 20, maxLength: 2048 };
    for (const schema of [topic, role]) {
      const value = sampleValue(schema, {});
      expect(typeof value, schema.pattern).toBe('string');
      expect(new RegExp(schema.pattern, 'u').test(value as string), String(value)).toBe(true);
      expect((value as string).length).toBeGreaterThanOrEqual(20);
    }
    expect(sampleFromPattern('a{2,}b', 6)).toBe('aaaaab');
    expect(sampleFromPattern('ab?', 5)).toBe('ab');
  });

  it('gives no object whose required property has no value, so an optional one is left out (AWS Pinpoint)', () => {
    const destination = { type: 'object', required: ['topic'], properties: { topic: { type: 'string', pattern: '^ $', minLength: 3 } } };
    expect(sampleValue(destination, {})).toBeUndefined();
    const request = { type: 'object', required: ['name'], properties: { name: { type: 'string' }, destination } };
    expect(sampleValue(request, {})).toEqual({ name: 'sample' });
    expect(sampleValue({ ...request, required: ['name', 'destination'] }, {})).toBeUndefined();
  });
});
