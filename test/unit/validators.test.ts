import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/paths.js';

const require = createRequire(import.meta.url);
type Compiled = ((data: unknown) => boolean) & { errors?: unknown[] | null };
const swaggerParserValidate = require('@apidevtools/swagger-parser/lib/validators/schema.js') as (api: unknown) => void;

/** What swagger-parser's validator reports for a document: nothing, or Ajv's errors. */
function reference(document: unknown): unknown[] {
  try {
    swaggerParserValidate(structuredClone(document));
    return [];
  } catch (error) {
    return (error as { details: unknown[] }).details;
  }
}

const info = { title: 'T', version: '1' };
const documents: Array<[string, unknown]> = [
  ['openapi-2.0', { swagger: '2.0', info, paths: { '/a': { get: { responses: { 200: { description: 'ok' } } } } } }],
  ['openapi-2.0', { swagger: '2.0', info: { title: 1 }, paths: { '/a': { get: { parameters: [{ in: 'nowhere' }], responses: {} } } } }],
  ['openapi-3.0', { openapi: '3.0.3', info, paths: { '/a': { get: { responses: { 200: { description: 'ok' } } } } } }],
  ['openapi-3.0', { openapi: '3.0.3', info, paths: { '/a': { get: { responses: { 200: {} }, extra: true } } }, servers: 'x' }],
  ['openapi-3.1', { openapi: '3.1.0', info, paths: { '/a': { get: { responses: { 200: { description: 'ok' } } } } } }],
  [
    'openapi-3.1',
    {
      openapi: '3.1.0',
      info,
      paths: { '/a': { get: { parameters: [{ name: 'x' }] } } },
      components: { securitySchemes: { b: { type: 'http', scheme: 'Bearer', x: 1 } } },
    },
  ],
];

/** The validators compiled at build time (scripts/build-validators.mjs) report exactly what swagger-parser reports. */
describe('precompiled OpenAPI validators', () => {
  it.each(documents)('%s agrees with swagger-parser', (name, document) => {
    const file = path.join(REPO_ROOT, 'dist/load/validators', `${name}.cjs`);
    expect(existsSync(file), `${file} is built by npm run build`).toBe(true);
    const validate = (require(file) as { document: Compiled }).document;
    const valid = validate(structuredClone(document));
    const expected = reference(document);
    expect(valid).toBe(expected.length === 0);
    expect(valid ? [] : validate.errors).toEqual(expected);
  });
});
