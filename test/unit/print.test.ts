import { describe, expect, it } from 'vitest';
import type { JsonObject, JsonValue } from '../../src/kernel/json.js';
import { printTypeAlias } from '../../src/emit/print/print-type.js';
import { Compact, printConst, printConstCall, printJsonDocument } from '../../src/emit/print/print-value.js';
import { argumentsMembers } from '../../src/emit/schema-to-type.js';
import { prettierFormat } from '../helpers/prettier.js';

/** A small seeded generator (mulberry32), so a failure names a reproducible case. */
function random(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (max: number) => Math.floor(next() * max);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)] as T;
  return { next, int, pick };
}
type Random = ReturnType<typeof random>;

const PIECES = [
  'a',
  'word',
  ' ',
  "'",
  '"',
  '\\',
  '\n',
  '\t',
  'é',
  '日本',
  '😀',
  '\u2028',
  'e\u0301',
  '|',
  '`',
  '${x}',
  '*/',
  'x'.repeat(30),
];
const KEYS = [
  'a',
  'id',
  'name',
  'type',
  'in',
  'long_property_name',
  'x-mcp-header',
  '$ref',
  '_x',
  'café',
  '日本',
  '1',
  '1.5',
  'class',
  "it's",
  'a"b',
  'k'.repeat(60),
  'with space',
  '𝒳',
];
const NUMBERS = [0, 1, -1, 42, 3.25, -0.5, 1e21, 5e-7, 123456789, -0];

function text(r: Random): string {
  let out = '';
  const parts = r.int(6);
  for (let index = 0; index < parts; index++) out += r.pick(PIECES);
  return out;
}

function value(r: Random, depth: number): JsonValue {
  const kind = r.int(depth > 3 ? 4 : 7);
  if (kind === 0) return text(r);
  if (kind === 1) return r.pick(NUMBERS);
  if (kind === 2) return r.pick([true, false, null]);
  if (kind === 3) return r.pick(['short', 'x'.repeat(r.int(120)), text(r)]);
  if (kind === 4) {
    const length = r.int(depth > 2 ? 4 : 12);
    if (r.int(3) === 0) return Array.from({ length }, () => r.pick(NUMBERS));
    return Array.from({ length }, () => value(r, depth + 1));
  }
  const out: JsonObject = {};
  const size = r.int(5);
  for (let index = 0; index < size; index++)
    Object.defineProperty(out, r.pick(KEYS) + (r.int(4) === 0 ? text(r) : ''), {
      value: value(r, depth + 1),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  return out;
}

function schema(r: Random, depth: number): JsonValue {
  const kind = r.int(depth > 2 ? 4 : 7);
  if (kind === 0) return { type: r.pick(['string', 'integer', 'boolean', 'object', 'null']) };
  if (kind === 1)
    return { enum: Array.from({ length: 1 + r.int(12) }, () => r.pick([text(r), r.pick(NUMBERS), null, true, 'v'.repeat(r.int(40))])) };
  if (kind === 2) return { const: r.pick(['on', 1, false]) };
  if (kind === 3) return { type: ['string', 'null'] };
  if (kind === 4) return { type: 'array', items: schema(r, depth + 1) };
  if (kind === 5) return { anyOf: Array.from({ length: 1 + r.int(4) }, () => schema(r, depth + 1)) };
  return { oneOf: [{ type: 'object' }, { type: 'null' }] };
}

describe('the value printer', () => {
  it('prints TypeScript declarations exactly as prettier formats them', async () => {
    for (let seed = 1; seed <= 400; seed++) {
      const r = random(seed);
      const data = r.int(5) === 0 ? value(r, 3) : { root: value(r, 0), other: value(r, 1), [r.pick(KEYS)]: value(r, 0) };
      const source = `${printConst(r.pick(['x', 'someLongerName'.repeat(1 + r.int(6))]), r.pick(['unknown', 'ToolDefinition']), data)}\n`;
      expect(source, `seed ${seed}`).toBe(await prettierFormat('x.ts', source));
    }
  });

  it('prints compact data exactly as prettier formats it: objects on one line where they fit', async () => {
    for (let seed = 1; seed <= 400; seed++) {
      const r = random(seed);
      const data = r.int(3) === 0 ? schema(r, 0) : value(r, r.int(3));
      const wrapped = r.int(2) === 0 ? new Compact(data) : { name: 'x', [r.pick(KEYS)]: new Compact(data), after: value(r, 2) };
      const source = `${printConst(r.pick(['x', 'someLongerName'.repeat(1 + r.int(6))]), r.pick(['unknown', 'SchemaDefs']), wrapped)}\n`;
      expect(source, `seed ${seed}`).toBe(await prettierFormat('x.ts', source));
    }
  });

  it('prints a call with one object argument exactly as prettier formats it', async () => {
    for (let seed = 1; seed <= 200; seed++) {
      const r = random(seed);
      const data = { name: 'x', [r.pick(KEYS)]: value(r, 1), list: new Compact(value(r, 2)) };
      const source = `${printConstCall(r.pick(['x', 'someLongerName'.repeat(1 + r.int(5))]), r.pick(['defineTool', 'f']), data)}\n`;
      expect(source, `seed ${seed}`).toBe(await prettierFormat('x.ts', source));
    }
  });

  it('prints compact JSON documents exactly as prettier formats them: objects on one line where they fit', async () => {
    for (let seed = 1; seed <= 300; seed++) {
      const r = random(seed);
      const data = r.int(3) === 0 ? schema(r, 0) : value(r, r.int(3));
      const source = printJsonDocument(
        r.int(2) === 0 ? new Compact(data) : { name: 'x', [r.pick(KEYS)]: new Compact(data), after: value(r, 2) },
      );
      expect(source, `seed ${seed}`).toBe(await prettierFormat('x.json', source));
    }
  });

  it('prints JSON documents exactly as prettier formats them', async () => {
    for (let seed = 1; seed <= 300; seed++) {
      const r = random(seed);
      const data = r.int(4) === 0 ? value(r, 2) : [value(r, 0), { key: value(r, 1), [r.pick(KEYS)]: value(r, 0) }];
      const source = printJsonDocument(data);
      expect(source, `seed ${seed}`).toBe(await prettierFormat('x.json', source));
    }
  });
});

describe('the type printer', () => {
  it('prints arguments types exactly as prettier formats them', async () => {
    for (let seed = 1; seed <= 300; seed++) {
      const r = random(seed);
      const properties: JsonObject = {};
      const count = r.int(6);
      for (let index = 0; index < count; index++) properties[`${r.pick(KEYS)}${index}`] = schema(r, 0);
      const members = argumentsMembers({ type: 'object', properties, required: Object.keys(properties).filter(() => r.int(2) === 0) });
      const source = `${printTypeAlias(r.pick(['PetsReadArguments', 'A'.repeat(1 + r.int(90))]), members)}\n`;
      expect(source, `seed ${seed}`).toBe(await prettierFormat('x.ts', source));
    }
  });
});
