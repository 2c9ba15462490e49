import { setOwn, type JsonObject, type JsonValue } from '../../src/kernel/json.js';
import type { Random } from './random.js';

/**
 * Mutations of an OpenAPI document, the kinds real and hostile descriptions show: keys deleted, replaced, duplicated
 * and renamed, values of the wrong type, huge strings and arrays, deep nesting, `$ref`s rewritten to nothing, to
 * themselves, out of the folder or onto the network, and OpenAPI keywords given nonsense.
 */

type Slot = { parent: JsonObject | JsonValue[]; key: string | number; value: JsonValue; tokens: Array<string | number> };

const HOSTILE_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  '',
  ' ',
  'x'.repeat(300),
  '$ref',
  'x-mcp',
  'x-mcp-header',
  '200',
  'default',
  'get',
  '/',
  '~',
  '~1',
  '{id}',
  '/{x}',
  '/a/{x}/{x}',
  '\n',
  '名前',
  '🙂',
  'a.b',
  'filter[name]',
  '$top',
];

const HOSTILE_STRINGS = [
  '',
  ' ',
  '\u0000',
  '\ud800',
  '\u2028\u2029',
  '\u202eevil',
  '🙂',
  '../../../../etc/passwd',
  'http://127.0.0.1:9/x.json',
  'file:///etc/passwd',
  '{{x}}',
  '${process.exit(7)}',
  '*/ process.exit(7) /*',
  '`',
  '"\'\\',
  '__proto__',
  'constructor',
  '#/components/schemas/Pet',
  '#/',
  '#',
  'string',
  'object',
  'array',
  'integer',
  'null',
  'file',
  'path',
  'query',
  'header',
  'cookie',
  'body',
  'formData',
  'application/json',
  'multipart/form-data',
  'text/plain',
  '*/*',
  '[a-',
  '(a+)+$',
  '^\\d{999999999}$',
  'x'.repeat(70),
  'x'.repeat(300),
];

const NUMBERS = [0, -1, 1, 1.5, -0.5, 1e308, -1e308, 2 ** 53 + 1, 999999999, 1e-300, 64, 65, 100000];

/** Values of every JSON type, including the sizes and shapes that break careless code. */
export function hostileValue(random: Random, depth = 0): JsonValue {
  const kind = random.weighted<string>([
    [6, 'string'],
    [4, 'number'],
    [2, 'boolean'],
    [2, 'null'],
    [2, 'empty-array'],
    [2, 'empty-object'],
    [depth < 3 ? 3 : 0, 'array'],
    [depth < 3 ? 3 : 0, 'object'],
    [1, 'huge-string'],
    [1, 'huge-array'],
    [1, 'huge-object'],
    [1, 'deep'],
    [1, 'deep-schema'],
  ]);
  switch (kind) {
    case 'string':
      return random.chance(0.7) ? random.pick(HOSTILE_STRINGS) : randomText(random, random.between(1, 40));
    case 'number':
      return random.pick(NUMBERS);
    case 'boolean':
      return random.chance(0.5);
    case 'null':
      return null;
    case 'empty-array':
      return [];
    case 'empty-object':
      return {};
    case 'array':
      return Array.from({ length: random.between(1, 4) }, () => hostileValue(random, depth + 1));
    case 'object': {
      const out: JsonObject = {};
      for (let index = random.between(1, 4); index > 0; index--)
        setOwn(out, random.chance(0.5) ? random.pick(HOSTILE_KEYS) : randomText(random, 6), hostileValue(random, depth + 1));
      return out;
    }
    case 'huge-string':
      return random.pick(['x', 'é', '🙂', '\n', ' ', '.']).repeat(random.pick([1_000, 10_000, 100_000, 1_000_000]));
    case 'huge-array':
      return Array.from({ length: random.pick([1_000, 10_000, 100_000]) }, (_, index) => (random.chance(0.5) ? `v${index}` : index));
    case 'huge-object': {
      const out: JsonObject = {};
      for (let index = random.pick([1_000, 5_000]); index > 0; index--) setOwn(out, `k${index}`, { type: 'string' });
      return out;
    }
    case 'deep':
      return nest(
        random.pick([20, 100, 300, 600]),
        () => (random.chance(0.5) ? [] : {}),
        (inner) => (random.chance(0.5) ? [inner] : { a: inner }),
      );
    default:
      return nest(
        random.pick([10, 50, 70, 200]),
        () => ({ type: 'string' }),
        (inner) => ({ type: 'object', properties: { a: inner } }),
      );
  }
}

function nest(levels: number, leaf: () => JsonValue, wrap: (inner: JsonValue) => JsonValue): JsonValue {
  let value = leaf();
  for (let index = 0; index < levels; index++) value = wrap(value);
  return value;
}

function randomText(random: Random, length: number): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./{}[]$#~ é日🙂\u0000\u2028"\'`\\';
  const chars = [...alphabet];
  return Array.from({ length }, () => random.pick(chars)).join('');
}

/** Every value of the document with where it sits; objects and arrays first-class, so any node can be the target. */
export function slots(root: JsonValue, limit = 200_000): Slot[] {
  const out: Slot[] = [];
  const stack: Slot[] = [];
  const push = (parent: JsonObject | JsonValue[], tokens: Array<string | number>) => {
    if (Array.isArray(parent)) parent.forEach((value, index) => stack.push({ parent, key: index, value, tokens: [...tokens, index] }));
    else for (const [key, value] of Object.entries(parent)) stack.push({ parent, key, value, tokens: [...tokens, key] });
  };
  if (root !== null && typeof root === 'object') push(root, []);
  while (stack.length > 0 && out.length < limit) {
    const slot = stack.pop() as Slot;
    out.push(slot);
    if (slot.value !== null && typeof slot.value === 'object' && slot.tokens.length < 40) push(slot.value, slot.tokens);
  }
  return out;
}

function setSlot(slot: Pick<Slot, 'parent' | 'key'>, value: JsonValue): void {
  if (Array.isArray(slot.parent)) slot.parent[slot.key as number] = value;
  else setOwn(slot.parent, slot.key as string, value);
}

function removeSlot(slot: Slot): void {
  if (Array.isArray(slot.parent)) slot.parent.splice(slot.key as number, 1);
  else delete slot.parent[slot.key as string];
}

const pointerOf = (tokens: Array<string | number>) =>
  `#${tokens.map((token) => `/${String(token).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('')}`;

/** Keywords whose values the generator interprets, with values that are wrong for them. */
const KEYWORD_NONSENSE: Record<string, JsonValue[]> = {
  type: ['objekt', ['string', 'banana'], 5, null, [], 'file', ['null'], { type: 'string' }],
  in: ['body', 'formData', 'nowhere', 42, null, 'cookie', 'header', 'path'],
  required: [true, 'yes', ['missing', 'missing'], [1, 2], {}, null],
  enum: [[], 'a', [null], [[1], { a: 1 }], Array.from({ length: 20_000 }, (_, index) => `e${index}`)],
  items: [[{ type: 'string' }, { type: 'integer' }], true, false, 'string', null],
  properties: [[], 'none', null, { '': { type: 'string' } }, { __proto__x: true }],
  operationId: ['', ' ', '__proto__', 'constructor', 'x'.repeat(300), 'a/b', 'list', 7, null],
  name: ['', '__proto__', 'constructor', 'a b', 'X-Bad\r\nInjected: 1', 'filter[name]', '日本', 7, null],
  $ref: [
    '#/nowhere',
    '#',
    '',
    'http://127.0.0.1:9/x.json',
    '../../../etc/passwd',
    './missing.yaml',
    '#/paths',
    '#/components/schemas/%ZZ',
    7,
  ],
  style: ['deepObject', 'matrix', 'label', 'spaceDelimited', 'pipeDelimited', 'nonsense', 7],
  explode: ['yes', 7, null],
  format: ['binary', 'byte', 'date-time', 'uuid', 'nonsense', 7],
  pattern: ['[a-', '(a+)+$', '^\\d{999999999}$', 7, '\\p{L}'],
  minLength: [-1, 1e9, 'x', 2.5],
  maxLength: [-1, 0, 1e308],
  minItems: [1e9, -5],
  minimum: [1e308, 'a'],
  maximum: [-1e308],
  multipleOf: [0, -1, 1e-300],
  default: [[[[[[1]]]]], { __proto__x: 1 }, 'x'.repeat(10_000)],
  servers: [[{ url: 'javascript:alert(1)' }], [{ url: '{a}{b}', variables: { a: { default: 'http://' }, b: { enum: [] } } }], 'x', []],
  url: ['', 'ftp://x', '//evil.example', 'http://[::1', '{scheme}://{host}', '/relative'],
  security: [[{ nope: [] }], 'x', [{}], [[]]],
  securitySchemes: [{ a: { type: 'apiKey', in: 'header', name: 'bad name' } }, { b: { type: 'oauth2', flows: 'x' } }, []],
  content: [{ '*/*': {} }, { 'multipart/form-data': { schema: { type: 'string' } } }, [], { 'application/json': null }],
  requestBody: [{ content: {} }, { $ref: '#/nowhere' }, 'x'],
  responses: [{}, { default: null }, [], { '200': 'ok' }],
  parameters: [{}, [null], [{ $ref: '#/paths' }], 'x'],
  'x-mcp': [false, true, 'x', { tool: '' }, { tool: 'a b' }, { annotations: { readOnlyHint: 'yes' } }, { hidden: true }],
  'x-mcp-header': ['', 'X Bad', true, 'Authorization', 7],
  allOf: [[], [{ $ref: '#' }], [{ type: 'string' }, { type: 'integer' }]],
  oneOf: [[], [true, false]],
  additionalProperties: [false, 'x', { $ref: '#/nowhere' }],
  nullable: ['yes', true],
  discriminator: [{ propertyName: 'x', mapping: { a: '#/nowhere' } }, 'x'],
  openapi: ['3.1.0', '3.0.0', '2.0', 3.1, '4.0.0', '3.2.0', null],
  swagger: ['2.0', 2, '3.0'],
  paths: [{}, null, [], { '': {} }, { '/a/{}': { get: {} } }],
};

export type Mutation = { name: string; apply: (random: Random, root: JsonObject) => string | undefined };

export const MUTATIONS: Mutation[] = [
  {
    name: 'delete',
    apply: (random, root) => {
      const slot = pickSlot(random, root);
      if (!slot) return undefined;
      removeSlot(slot);
      return `delete ${pointerOf(slot.tokens)}`;
    },
  },
  {
    name: 'replace',
    apply: (random, root) => {
      const slot = pickSlot(random, root);
      if (!slot) return undefined;
      setSlot(slot, hostileValue(random));
      return `replace ${pointerOf(slot.tokens)}`;
    },
  },
  {
    name: 'wrong-type',
    apply: (random, root) => {
      const candidates = slots(root).filter((slot) => typeof slot.key === 'string' && Object.hasOwn(KEYWORD_NONSENSE, slot.key));
      if (candidates.length === 0) return undefined;
      const slot = random.pick(candidates);
      // An object whose own `toString` is not a function: `String(value)` or a template literal throws on it.
      const value = random.chance(0.2)
        ? { toString: '🙂', valueOf: 7, toJSON: 'x' }
        : random.pick(KEYWORD_NONSENSE[slot.key as string] as JsonValue[]);
      setSlot(slot, structuredClone(value));
      return `nonsense ${pointerOf(slot.tokens)}`;
    },
  },
  {
    name: 'duplicate',
    apply: (random, root) => {
      const source = pickSlot(random, root);
      const all = slots(root).filter((slot) => slot.value !== null && typeof slot.value === 'object' && !Array.isArray(slot.value));
      if (!source || all.length === 0) return undefined;
      const target = random.pick(all);
      const key =
        random.chance(0.5) && typeof source.key === 'string'
          ? `${source.key}${random.pick(['', '_copy', '2', '/{id}'])}`
          : random.pick(HOSTILE_KEYS);
      setOwn(target.value as JsonObject, key, structuredClone(source.value));
      return `duplicate ${pointerOf(source.tokens)} to ${pointerOf([...target.tokens, key])}`;
    },
  },
  {
    name: 'rename',
    apply: (random, root) => {
      const candidates = slots(root).filter((slot) => typeof slot.key === 'string');
      if (candidates.length === 0) return undefined;
      const slot = random.pick(candidates);
      const key = random.pick(HOSTILE_KEYS);
      removeSlot(slot);
      setOwn(slot.parent as JsonObject, key, slot.value);
      return `rename ${pointerOf(slot.tokens)} to ${JSON.stringify(key)}`;
    },
  },
  {
    name: 'rewrite-ref',
    apply: (random, root) => {
      const all = slots(root);
      const refs = all.filter((slot) => slot.key === '$ref');
      const slot = refs.length > 0 ? random.pick(refs) : undefined;
      if (!slot) return undefined;
      const elsewhere = random.pick(all);
      const choice = random.weighted<JsonValue>([
        [3, pointerOf(elsewhere.tokens)],
        [2, pointerOf(slot.tokens.slice(0, -1))],
        [1, pointerOf(slot.tokens.slice(0, -2))],
        [1, '#/components/schemas/DoesNotExist'],
        [1, 'http://127.0.0.1:9/remote.json'],
        [1, 'https://169.254.169.254/latest/meta-data'],
        [1, '../../../../../etc/passwd'],
        [1, '/etc/hostname'],
        [1, './nonexistent.yaml#/Pet'],
        [1, '#/components/schemas/%ZZ'],
        [1, '#paths'],
        [1, ''],
        [1, 7],
      ]);
      setSlot(slot, choice);
      return `ref ${pointerOf(slot.tokens)} -> ${JSON.stringify(choice)}`;
    },
  },
  {
    name: 'add-ref',
    apply: (random, root) => {
      const all = slots(root);
      const objects = all.filter((slot) => slot.value !== null && typeof slot.value === 'object' && !Array.isArray(slot.value));
      if (objects.length === 0) return undefined;
      const slot = random.pick(objects);
      const target = random.chance(0.3) ? slot : random.pick(all);
      setSlot(slot, { $ref: pointerOf(target.tokens) });
      return `ref-loop ${pointerOf(slot.tokens)} -> ${pointerOf(target.tokens)}`;
    },
  },
  {
    name: 'nest',
    apply: (random, root) => {
      const slot = pickSlot(random, root);
      if (!slot) return undefined;
      const levels = random.pick([5, 30, 70, 150, 400]);
      const wrap = random.pick<(inner: JsonValue) => JsonValue>([
        (inner) => ({ allOf: [inner] }),
        (inner) => ({ type: 'object', properties: { nested: inner } }),
        (inner) => ({ type: 'array', items: inner }),
        (inner) => [inner],
      ]);
      setSlot(
        slot,
        nest(levels, () => slot.value, wrap),
      );
      return `nest ${pointerOf(slot.tokens)} x${levels}`;
    },
  },
  {
    name: 'swap',
    apply: (random, root) => {
      const first = pickSlot(random, root);
      const second = pickSlot(random, root);
      if (!first || !second || first === second) return undefined;
      const value = first.value;
      setSlot(first, structuredClone(second.value));
      setSlot(second, structuredClone(value));
      return `swap ${pointerOf(first.tokens)} ${pointerOf(second.tokens)}`;
    },
  },
];

/** Prefers the parts the generator reads (paths, components, parameters) over vendor extensions and examples. */
function pickSlot(random: Random, root: JsonObject): Slot | undefined {
  const all = slots(root);
  if (all.length === 0) return undefined;
  if (random.chance(0.7)) {
    const interesting = all.filter(
      (slot) => slot.tokens[0] === 'paths' || slot.tokens[0] === 'components' || slot.tokens[0] === 'definitions',
    );
    if (interesting.length > 0) return random.pick(interesting);
  }
  return random.pick(all);
}

/** Applies 1–4 mutations; returns what was done, for the failure report. */
export function mutate(random: Random, root: JsonObject): string[] {
  const done: string[] = [];
  for (
    let count = random.weighted([
      [5, 1],
      [3, 2],
      [2, 3],
      [1, 4],
    ]);
    count > 0;
    count--
  ) {
    const mutation = random.pick(MUTATIONS);
    const what = mutation.apply(random, root);
    if (what) done.push(what);
  }
  return done;
}

/** Text-level damage after serialisation: truncation, a flipped byte, a stray character. */
export function damageText(random: Random, text: string): { text: string; what: string } {
  const at = random.int(Math.max(1, text.length));
  return random.weighted<() => { text: string; what: string }>([
    [2, () => ({ text: text.slice(0, at), what: `truncate at ${at}` })],
    [
      2,
      () => ({
        text: `${text.slice(0, at)}${random.pick(['{', '}', '"', ':', '\n', '\t', '\u0000', '&a', '*a', '- ', '#', '\ufeff'])}${text.slice(at)}`,
        what: `insert at ${at}`,
      }),
    ],
    [1, () => ({ text: `${text.slice(0, at)}${text.slice(at + random.between(1, 50))}`, what: `cut at ${at}` })],
    [1, () => ({ text: `\ufeff${text}`, what: 'byte order mark' })],
  ])();
}
