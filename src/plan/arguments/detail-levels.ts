import * as jsonSchema from '../../kernel/schema-keywords.js';

/**
 * Schema detail per level: how long descriptions may be, how deep nested objects stay typed, which validation
 * keywords stay. What a model needs to get a value right goes last: the type, an enum, a format or pattern, a short
 * phrase of meaning (`argument` characters at most, and only a phrase that says more than the argument's name) and a
 * body's first level of fields.
 */
export const LEVELS = [
  { argument: 300, nested: 160, maxDepth: Infinity, useDefs: true, defaults: true, constraints: 'all', collapse: 'none' },
  { argument: 140, nested: 60, maxDepth: Infinity, useDefs: true, defaults: true, constraints: 'all', collapse: 'none' },
  { argument: 90, nested: 0, maxDepth: 3, useDefs: false, defaults: false, constraints: 'all', collapse: 'none' },
  { argument: 60, nested: 0, maxDepth: 2, useDefs: false, defaults: false, constraints: 'all', collapse: 'none' },
  { argument: 40, nested: 0, maxDepth: 2, useDefs: false, defaults: false, constraints: 'shape', collapse: 'none' },
  { argument: 30, nested: 0, maxDepth: 2, useDefs: false, defaults: false, constraints: 'shape', collapse: 'single' },
  { argument: 0, nested: 0, maxDepth: 1, useDefs: false, defaults: false, constraints: 'shape', collapse: 'single' },
  { argument: 0, nested: 0, maxDepth: 1, useDefs: false, defaults: false, constraints: 'shape', collapse: 'minority' },
] as const;

/** Validation keywords dropped at the lean levels: the server checks them against the full schema anyway. */
export const BOUND_KEYWORDS = new Set<string>([
  ...jsonSchema.STRING_LENGTH,
  ...jsonSchema.NUMBER_RANGE,
  ...jsonSchema.EXCLUSIVE_RANGE,
  'multipleOf',
  ...jsonSchema.ARRAY_SIZE,
  ...jsonSchema.PROPERTY_COUNT,
]);

export const MAX_DETAIL = LEVELS.length - 1;

/**
 * From this level on, a tool keeps only what a model cannot infer: descriptions drop the API's name and longer
 * explanations, schemas their validation bounds. These levels are also the cheapest to build.
 */
export const LEAN_DETAIL = 4;

/** Larger enums are described instead of listed; listing thousands of values would crowd out everything else. */
export const MAX_ENUM = 64;

export type Level = (typeof LEVELS)[number];
