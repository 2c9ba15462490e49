import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildProject, generateProject, linkDependencies, runProjectTests, tempDir } from '../helpers/project.js';
import { toolRuleViolations } from '../helpers/tool-rules.js';

/** 140 resources, each listed, created, read, updated and deleted (700 operations, more than any corpus file), and two uploads. */
function largeDescription(resources: number): object {
  const paths: Record<string, object> = {};
  const item = { type: 'object', properties: { id: { type: 'string' }, name: { type: 'string' }, size: { type: 'integer' } } };
  const ok = (schema: object) => ({ 200: { description: 'ok', content: { 'application/json': { schema } } } });
  for (let index = 0; index < resources; index++) {
    const name = `widget${index}`;
    const body = { required: true, content: { 'application/json': { schema: item } } };
    const id = { name: 'id', in: 'path', required: true, schema: { type: 'string' } };
    paths[`/${name}s`] = {
      get: {
        operationId: `list_${name}s`,
        parameters: [{ name: 'page', in: 'query', schema: { type: 'integer' } }],
        responses: ok({ type: 'array', items: item }),
      },
      post: { operationId: `create_${name}`, requestBody: body, responses: ok(item) },
    };
    paths[`/${name}s/{id}`] = {
      parameters: [id],
      get: { operationId: `get_${name}`, responses: ok(item) },
      patch: { operationId: `update_${name}`, requestBody: body, responses: ok(item) },
      delete: { operationId: `delete_${name}`, responses: { 204: { description: 'deleted' } } },
    };
  }
  // Bodies typed with media ranges, as GitHub Enterprise Server's uploads are: the server must send a real type.
  paths['/uploads'] = {
    post: {
      operationId: 'upload_asset',
      requestBody: { required: true, content: { '*/*': { schema: { type: 'string', format: 'binary' } } } },
      responses: ok(item),
    },
  };
  paths['/notes'] = {
    post: {
      operationId: 'add_note',
      requestBody: { required: true, content: { 'text/*': { schema: { type: 'string' } } } },
      responses: ok(item),
    },
  };
  return {
    openapi: '3.0.3',
    info: { title: 'Widgets at scale', version: '1.0.0' },
    servers: [{ url: 'https://api.example.com/v1' }],
    components: { securitySchemes: { key: { type: 'apiKey', in: 'header', name: 'X-Api-Key' } } },
    security: [{ key: [] }],
    paths,
  };
}

/**
 * A held-out shape the vendor corpus lacks: an API with more operations than the generated server's default rate
 * limit allows calls per minute. Its own test suite calls every action once and must still pass.
 */
describe('a 702-operation API', () => {
  it('plans every operation, builds, and passes its own tests', async () => {
    const dir = await tempDir('large-api');
    const spec = path.join(dir, '..', `${path.basename(dir)}.json`);
    await writeFile(spec, JSON.stringify(largeDescription(140)));
    const result = await generateProject({ spec, out: dir });
    const operations = result.model!.operations.map((operation) => operation.key);
    expect(operations).toHaveLength(702);
    expect(toolRuleViolations(result.plan!, operations)).toEqual([]);
    await linkDependencies(dir);
    await buildProject(dir);
    const tests = await runProjectTests(dir);
    expect(tests.code, `${tests.stdout}\n${tests.stderr}`.slice(-4000)).toBe(0);
  });
});
