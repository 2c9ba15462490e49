import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Diagnostics } from '../../src/diagnostics/diagnostic.js';
import { loadSpec } from '../../src/load/load-spec.js';
import { FIXTURE_SPECS, fixtureSpec } from '../helpers/paths.js';
import { loadText } from '../helpers/inline.js';
import { withDefaults } from '../helpers/options.js';

const codes = (diagnostics: Diagnostics) => diagnostics.items.map((item) => item.code);

describe('load', () => {
  it('reads JSON and YAML and detects the version', async () => {
    for (const [text, version] of [
      ['{"swagger":"2.0","info":{"title":"t","version":"1"},"paths":{}}', '2.0'],
      ['openapi: 3.0.3\ninfo: {title: t, version: "1"}\npaths: {}\n', '3.0'],
      ['openapi: 3.1.0\ninfo: {title: t, version: "1"}\npaths: {}\n', '3.1'],
    ] as const) {
      const { document } = await loadText(text);
      expect(document?.version).toBe(version);
    }
  });

  it('accepts a UTF-8 byte order mark (openfinancebrasil)', async () => {
    const diagnostics = new Diagnostics();
    const document = await loadSpec(withDefaults({ spec: fixtureSpec('openfinancebrasil-accounts.yaml') }), diagnostics);
    expect(document?.version).toBe('3.0');
    expect(diagnostics.hasErrors).toBe(false);
  });

  it('names UTF-16 as the problem, with or without a byte order mark, in JSON and YAML alike', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'otm-utf16-'));
    const yaml = 'openapi: 3.0.0\ninfo: {title: t, version: "1"}\npaths: {}\n';
    const json = JSON.stringify({ openapi: '3.0.0', info: { title: 't', version: '1' }, paths: {} });
    const littleEndian = (text: string) => Buffer.from(text, 'utf16le');
    const bigEndian = (text: string) => littleEndian(text).swap16();
    const files = {
      'le-bom.yaml': Buffer.concat([Buffer.from([0xff, 0xfe]), littleEndian(yaml)]),
      'be-bom.json': Buffer.concat([Buffer.from([0xfe, 0xff]), bigEndian(json)]),
      'le.json': littleEndian(json),
      'be.yaml': bigEndian(yaml),
    };
    for (const [name, bytes] of Object.entries(files)) {
      const file = path.join(dir, name);
      await writeFile(file, bytes);
      const diagnostics = new Diagnostics();
      expect(await loadSpec(withDefaults({ spec: file }), diagnostics), name).toBeUndefined();
      expect(
        diagnostics.items.map(({ code, message }) => ({ code, message })),
        name,
      ).toEqual([{ code: 'OTM_PARSE_ERROR', message: `${file} is UTF-16 text; descriptions are read as UTF-8.` }]);
      expect(diagnostics.items[0]?.hint).toContain('Save the file as UTF-8');
    }
  });

  it('reports JSON syntax errors with line and column', async () => {
    const { document, diagnostics } = await loadText('{\n  "openapi": "3.0.0",\n  "info": {,\n}');
    expect(document).toBeUndefined();
    expect(diagnostics.items[0]).toMatchObject({ code: 'OTM_PARSE_ERROR', line: 3, severity: 'error' });
  });

  it('reports YAML syntax errors with line and column', async () => {
    const { diagnostics } = await loadText('openapi: 3.0.0\ninfo:\n  title: t\n   version: 1\n');
    expect(diagnostics.items[0]).toMatchObject({ code: 'OTM_PARSE_ERROR', line: 4 });
  });

  it('keeps dates as strings (YAML 1.2 core schema)', async () => {
    const { document } = await loadText('openapi: 3.0.0\ninfo: {title: t, version: 2020-09-14}\npaths: {}\n');
    expect((document?.root['info'] as { version: unknown }).version).toBe('2020-09-14');
  });

  it('refuses documents that are not OpenAPI, or an unsupported version', async () => {
    expect(codes((await loadText('[1, 2]')).diagnostics)).toEqual(['OTM_NOT_OPENAPI']);
    expect(codes((await loadText('name: x\n')).diagnostics)).toEqual(['OTM_NOT_OPENAPI']);
    expect(codes((await loadText('openapi: 4.0.0\npaths: {}\n')).diagnostics)).toEqual(['OTM_UNSUPPORTED_VERSION']);
    expect(codes((await loadText('swagger: "1.2"\n')).diagnostics)).toEqual(['OTM_UNSUPPORTED_VERSION']);
  });

  it('requires paths in 3.0 but accepts a webhooks-only 3.1 description', async () => {
    expect(codes((await loadText('openapi: 3.0.0\ninfo: {title: t, version: "1"}\n')).diagnostics)).toContain('OTM_NO_PATHS');
    const diagnostics = new Diagnostics();
    const document = await loadSpec(withDefaults({ spec: fixtureSpec('oai-webhook-example.yaml') }), diagnostics);
    expect(document?.version).toBe('3.1');
    expect(diagnostics.items.map((item) => [item.severity, item.code])).toContainEqual(['warning', 'OTM_NO_PATHS']);
  });

  it('bundles multi-file descriptions inside the ref root and refuses to leave it', async () => {
    const entry = fixtureSpec('oai-petstore-separate/spec/swagger.yaml');
    const refused = new Diagnostics();
    expect(await loadSpec(withDefaults({ spec: entry }), refused)).toBeUndefined();
    expect(refused.errors[0]).toMatchObject({ code: 'OTM_REF_OUTSIDE_ROOT' });
    expect(refused.errors[0]?.hint).toContain('--ref-root');
    const allowed = new Diagnostics();
    const document = await loadSpec(withDefaults({ spec: entry, refRoot: path.join(FIXTURE_SPECS, 'oai-petstore-separate') }), allowed);
    expect(allowed.hasErrors).toBe(false);
    expect(JSON.stringify(document?.root)).not.toContain('../common/Error.yaml');
  });

  it('bundles whole path items from other files (pihole-ftl)', async () => {
    const diagnostics = new Diagnostics();
    const document = await loadSpec(withDefaults({ spec: fixtureSpec('pihole-ftl/main.yaml') }), diagnostics);
    expect(diagnostics.hasErrors).toBe(false);
    expect(Object.keys(document?.root['paths'] as object).length).toBeGreaterThan(60);
  });

  it('never follows remote references unless allowed', async () => {
    const { diagnostics } = await loadText(
      'openapi: 3.0.0\ninfo: {title: t, version: "1"}\npaths:\n  /a:\n    $ref: "http://127.0.0.1:9/x.yaml#/a"\n',
    );
    expect(diagnostics.errors[0]).toMatchObject({ code: 'OTM_REF_REMOTE_BLOCKED', pointer: '#/paths/~1a' });
  });

  it('leaves $refs inside example values, defaults and enums alone: they are data (GitHub Enterprise Cloud)', async () => {
    // GitHub's ghec.json has example values holding `$ref`s to files it never published.
    const dataRefs = {
      example: { stats: { $ref: 'unpublished-example.yaml' } },
      default: { $ref: 'not-a-file.yaml' },
      enum: [{ $ref: 'also-data.yaml' }],
    };
    const spec = (parameterRef: string) =>
      JSON.stringify({
        openapi: '3.0.3',
        info: { title: 't', version: '1' },
        paths: {
          '/stats': {
            get: {
              parameters: [{ $ref: parameterRef }],
              responses: {
                default: {
                  description: 'ok',
                  content: {
                    'application/json': {
                      schema: { type: 'object', properties: { default: { type: 'object', ...dataRefs } } },
                      examples: { stats: { value: { actions: { $ref: 'server-statistics-actions.yaml' } } } },
                    },
                  },
                },
              },
            },
          },
        },
        components: { parameters: { Page: { name: 'page', in: 'query', schema: { type: 'integer' } } } },
      });
    const local = await loadText(spec('#/components/parameters/Page'));
    expect(codes(local.diagnostics).filter((code) => code.startsWith('OTM_REF'))).toEqual([]);
    expect(local.document?.version).toBe('3.0');

    // With a real reference to another file the bundler runs; the data keeps its `$ref` keys, untouched.
    const dir = await mkdtemp(path.join(tmpdir(), 'otm-data-refs-'));
    await writeFile(path.join(dir, 'page.yaml'), 'name: page\nin: query\nschema: {type: integer}\n');
    await writeFile(path.join(dir, 'openapi.json'), spec('page.yaml'));
    const diagnostics = new Diagnostics();
    const bundled = await loadSpec(withDefaults({ spec: path.join(dir, 'openapi.json') }), diagnostics);
    expect(diagnostics.errors).toEqual([]);
    const operation = (bundled?.root['paths'] as Record<string, Record<string, Record<string, unknown>>>)['/stats']?.['get'];
    expect(operation?.['parameters']).toEqual([{ name: 'page', in: 'query', schema: { type: 'integer' } }]);
    const media = JSON.stringify(operation?.['responses']);
    expect(media).toContain('{"$ref":"server-statistics-actions.yaml"}');
    expect(media).toContain('"default":{"type":"object","example":{"stats":{"$ref":"unpublished-example.yaml"}}');
    expect(media).not.toContain('openapi-to-mcp:$ref');
  });

  it('ignores unresolvable references inside vendor extensions (spotify)', async () => {
    // Spotify's description: `components.x-spotify-policy` refers to a file upstream never shipped, outside the
    // description's folder, and operations point into that extension.
    const dir = await mkdtemp(path.join(tmpdir(), 'otm-load-'));
    await mkdir(path.join(dir, 'spec'));
    const spec = path.join(dir, 'spec/openapi.yaml');
    await writeFile(
      spec,
      [
        'openapi: 3.0.3',
        'info: { title: Spotify-like, version: "1" }',
        'paths:',
        '  /me:',
        '    get:',
        "      x-spotify-policy-list: { $ref: '#/components/x-spotify-policy/metadataPolicyList' }",
        '      responses: { "200": { description: ok } }',
        'components:',
        '  x-spotify-policy:',
        "    $ref: '../policies.yaml'",
        '    metadataPolicyList: []',
        '',
      ].join('\n'),
    );
    const diagnostics = new Diagnostics();
    const document = await loadSpec(withDefaults({ spec }), diagnostics);
    expect(document?.version).toBe('3.0');
    expect(diagnostics.hasErrors).toBe(false);
  });

  it('turns schema validation failures into warnings with pointers (xero, sendgrid)', async () => {
    const diagnostics = new Diagnostics();
    // SendGrid's and Xero's descriptions break their schema inside operations; so does a response without a description.
    const dir = await mkdtemp(path.join(tmpdir(), 'otm-load-'));
    const spec = path.join(dir, 'openapi.json');
    await writeFile(
      spec,
      JSON.stringify({ openapi: '3.0.3', info: { title: 't', version: '1' }, paths: { '/a': { get: { responses: { 200: {} } } } } }),
    );
    const document = await loadSpec(withDefaults({ spec }), diagnostics);
    expect(document?.version).toBe('3.0');
    const warnings = diagnostics.warnings.filter((item) => item.code === 'OTM_VALIDATION');
    expect(warnings.map((warning) => warning.pointer)).toEqual(Array(3).fill('#/paths/~1a/get/responses/200'));
    expect(warnings[0]?.pointer).toMatch(/^#\/paths\//);
  });

  it('refuses inputs over the size limit before parsing them', async () => {
    const diagnostics = new Diagnostics();
    expect(
      await loadSpec(withDefaults({ spec: fixtureSpec('swaggerio-petstore-v3.yaml'), maxInputBytes: 1024 }), diagnostics),
    ).toBeUndefined();
    expect(codes(diagnostics)).toEqual(['OTM_INPUT_TOO_LARGE']);
  });

  it('reports a missing file without a stack trace', async () => {
    const diagnostics = new Diagnostics();
    expect(await loadSpec(withDefaults({ spec: 'no/such/file.yaml' }), diagnostics)).toBeUndefined();
    expect(diagnostics.items[0]?.code).toBe('OTM_INPUT_UNREADABLE');
    expect(diagnostics.items[0]?.message).not.toMatch(/\n\s+at /);
  });
});

describe('load from a URL', () => {
  it('fetches the description and its same-origin relative references, but no other host', async () => {
    const { createServer } = await import('node:http');
    const files: Record<string, string> = {
      '/api/openapi.yaml':
        'openapi: 3.0.0\ninfo: {title: Remote, version: "1"}\npaths:\n  /a:\n    get:\n      parameters: [{$ref: "params.yaml#/limit"}]\n      responses: {"200": {description: ok}}\n',
      '/api/params.yaml': 'limit: {in: query, name: limit, schema: {type: integer}}\n',
    };
    const server = createServer((request, response) => {
      const body = files[request.url ?? ''];
      response.writeHead(body ? 200 : 404);
      response.end(body ?? 'not found');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    try {
      const diagnostics = new Diagnostics();
      const document = await loadSpec(withDefaults({ spec: `http://127.0.0.1:${port}/api/openapi.yaml` }), diagnostics);
      expect(diagnostics.hasErrors).toBe(false);
      expect(JSON.stringify(document?.root)).toContain('"name":"limit"');
      const missing = new Diagnostics();
      expect(await loadSpec(withDefaults({ spec: `http://127.0.0.1:${port}/api/nope.yaml` }), missing)).toBeUndefined();
      expect(missing.items[0]?.code).toBe('OTM_INPUT_UNREADABLE');
    } finally {
      server.close();
    }
  });
});
