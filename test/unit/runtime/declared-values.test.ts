import { describe, expect, it } from 'vitest';
import { asDeclared, declaredOf } from '../../../templates/runtime/arguments/declared-values.js';

const defs = {
  HexId: { type: 'string', pattern: '^[0-9a-f]{24}$' },
  Nullable: { anyOf: [{ type: 'integer' }, { type: 'null' }] },
};

const text = (value: unknown, schema: unknown) => asDeclared(value, declaredOf(schema, defs), 'text');
const json = (value: unknown, schema: unknown) => asDeclared(value, declaredOf(schema, defs), 'json');

describe('a value sent as text is checked as the declared value with the same text', () => {
  it('takes a number for a string, and booleans for the string enum "true" | "false"', () => {
    expect(text(41236, { type: 'string' })).toBe('41236');
    expect(text(false, { type: 'string', enum: ['true', 'false'] })).toBe('false');
    expect(text(true, { enum: ['true', 'false'] })).toBe('true');
    expect(text(41236, { $ref: '#/$defs/HexId' })).toBe('41236');
  });

  it('takes digit strings for integers, decimal text for numbers, "true" and "false" for booleans', () => {
    expect(text('25', { type: 'integer' })).toBe(25);
    expect(text('007', { type: 'integer' })).toBe(7);
    expect(text('1765432100.123', { type: 'number' })).toBe(1765432100.123);
    expect(text('false', { type: 'boolean' })).toBe(false);
    expect(text('7', { $ref: '#/$defs/Nullable' })).toBe(7);
    expect(text('2', { type: 'integer', enum: [1, 2, 3] })).toBe(2);
    expect(text(2, { type: 'string', enum: ['1', '2'] })).toBe('2');
  });

  it('takes one value for a list, and converts the items of a list', () => {
    expect(text('7', { type: 'array', items: { type: 'integer' } })).toEqual([7]);
    expect(text([1, 2], { type: 'array', items: { type: 'string' } })).toEqual(['1', '2']);
  });

  it('leaves what reads as no declared value, so that its rule refuses it', () => {
    expect(text('abc', { type: 'integer' })).toBe('abc');
    expect(text('0x10', { type: 'integer' })).toBe('0x10');
    expect(text(' 25', { type: 'integer' })).toBe(' 25');
    expect(text('4.5', { type: 'integer' })).toBe('4.5');
    expect(text('1e400', { type: 'number' })).toBe('1e400');
    expect(text('yes', { type: 'boolean' })).toBe('yes');
    expect(text(1, { type: 'boolean' })).toBe(1);
    expect(text({ a: 1 }, { type: 'string' })).toEqual({ a: 1 });
  });

  it('keeps a value the declaration takes, and any value where nothing is declared', () => {
    expect(text('41236', { anyOf: [{ type: 'integer' }, { type: 'string' }] })).toBe('41236');
    expect(text(5, { type: 'number' })).toBe(5);
    expect(text(5, {})).toBe(5);
    expect(text(5, { anyOf: [{ type: 'string' }, {}] })).toBe(5);
  });

  it('prefers the candidate the enum lists, and else one of the declared type', () => {
    expect(text('1', { type: ['integer', 'boolean'], enum: [1, false] })).toBe(1);
    expect(text(true, { type: 'string', enum: ['yes', 'no'] })).toBe('true');
  });
});

describe('a JSON value whose declared type is a plain scalar converts only without loss', () => {
  it('converts "42" to 42 for an integer, 42 to "42" for a string, "true" to true for a boolean', () => {
    expect(json('42', { type: 'integer' })).toBe(42);
    expect(json('-3', { type: ['integer', 'null'] })).toBe(-3);
    expect(json(42, { type: 'string' })).toBe('42');
    expect(json(true, { type: 'string', enum: ['true', 'false'] })).toBe('true');
    expect(json('true', { type: 'boolean' })).toBe(true);
    expect(json('4.5', { type: 'number' })).toBe(4.5);
  });

  it('refuses what would change: a fraction for an integer, other spellings of a number, unsafe integers', () => {
    expect(json('4.5', { type: 'integer' })).toBe('4.5');
    expect(json(4.5, { type: 'integer' })).toBe(4.5);
    expect(json('1e3', { type: 'integer' })).toBe('1e3');
    expect(json('007', { type: 'integer' })).toBe('007');
    expect(json('4.50', { type: 'number' })).toBe('4.50');
    expect(json('12345678901234567890', { type: 'integer' })).toBe('12345678901234567890');
    expect(json('', { type: 'number' })).toBe('');
  });

  it('converts nothing into a union, a list or an object', () => {
    expect(json('7', { $ref: '#/$defs/Nullable' })).toBe('7');
    expect(json('7', { type: 'array', items: { type: 'integer' } })).toBe('7');
    expect(json(7, { type: 'object' })).toBe(7);
  });
});
