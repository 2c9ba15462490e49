import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureSpec } from '../helpers/paths.js';
import {
  buildProject,
  connectHttp,
  connectStdio,
  generateProject,
  linkDependencies,
  startHttpServer,
  tempDir,
  textOf,
  type HttpServer,
} from '../helpers/project.js';
import { startUpstream, type RecordedRequest, type Reply, type Upstream } from '../helpers/upstream.js';

/** About 2 MB of reports: far over the result budget (10,000 tokens, some 40,000 characters). */
const REPORTS = Array.from({ length: 4_000 }, (_, index) => ({
  id: `r${index}`,
  name: `Report ${index}`,
  status: index % 2 ? 'final' : 'draft',
  body: `Quarterly figures ${index} `.repeat(18),
}));
const WHOLE = JSON.stringify(REPORTS);

/** A real PNG of one colour: signature, header, pixels, end (CRCs as zlib computes them). */
function png(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3, 0x3c)]);
  const pixels = deflateSync(Buffer.concat(Array.from({ length: height }, () => row)));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', pixels),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

const SERVER_ICON = png(64, 64);
const TOOL_ICON = png(48, 48);
const READ_ICON = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 8 8"><title>a "read" & <more></title><circle r="3"/></svg>';

type Link = { type: 'resource_link'; uri: string; name: string; mimeType?: string; size?: number };

function linkOf(result: { content?: unknown }): Link | undefined {
  return ((result.content ?? []) as Array<{ type: string }>).find((item) => item.type === 'resource_link') as Link | undefined;
}

/** The whole answer a client reads from a link: the text of its one content. */
async function read(client: Client, uri: string): Promise<string> {
  const result = await client.readResource({ uri });
  const [content] = result.contents as Array<{ uri: string; mimeType?: string; text?: string }>;
  expect(content?.uri).toBe(uri);
  expect(content?.mimeType).toBe('application/json');
  return content?.text ?? '';
}

/** The API: 2 MB of reports, exports accepted with a Location, their status, and 404 for anything else. */
function answer(request: RecordedRequest): Reply {
  if (request.method === 'GET' && request.path === '/v1/reports') return { body: WHOLE };
  if (request.method === 'POST' && request.path === '/v1/reports/r7/exports')
    return { status: 202, headers: { location: '/v1/reports/r7/exports/e1?view=status', 'retry-after': '3' } };
  if (request.method === 'GET' && request.path === '/v1/reports/r7/exports/e1')
    return { body: JSON.stringify({ id: 'e1', status: 'succeeded' }) };
  if (request.method === 'POST' && request.path === '/v1/reports/r8/exports')
    return { status: 202, headers: { location: 'https://elsewhere.example.com/jobs/9' } };
  if (request.method === 'POST' && request.path === '/v1/reports/r7/refresh')
    return {
      status: 200,
      headers: { 'operation-location': `/v1/operations/o5` },
      body: JSON.stringify({ id: 'o5', status: 'running' }),
    };
  if (request.method === 'GET' && request.path === '/v1/operations/o5') return { body: JSON.stringify({ id: 'o5', status: 'succeeded' }) };
  return { status: 404, body: JSON.stringify({ message: 'no such thing' }) };
}

describe('generated server with icons, result links and long-running operations', () => {
  let dir: string;
  let upstream: Upstream;
  const servers: HttpServer[] = [];
  const clients: Client[] = [];

  beforeAll(async () => {
    dir = await tempDir('result-links');
    const icons = `${dir}-icons`;
    await mkdir(icons, { recursive: true });
    await writeFile(path.join(icons, 'tool.png'), TOOL_ICON);
    await writeFile(path.join(icons, 'read.svg'), READ_ICON);
    await generateProject({
      spec: fixtureSpec('report-center.yaml'),
      out: dir,
      icons: {
        server: `data:image/png;base64,${SERVER_ICON.toString('base64')}`,
        tools: path.join(icons, 'tool.png'),
        byTool: { reports_read: path.join(icons, 'read.svg') },
      },
    });
    await linkDependencies(dir);
    await buildProject(dir);
    upstream = await startUpstream();
    upstream.reply = answer;
    const env = {
      REPORT_CENTER_BASE_URL: `${upstream.url}/v1`,
      REPORT_CENTER_BEARER: 'tok-123456789',
      // The same keys on every replica: a status handle one replica gave, another opens.
      REPORT_CENTER_STATE_KEYS: randomBytes(32).toString('base64'),
    };
    // Two replicas, as behind a load balancer: nothing is shared between them but their configuration.
    for (let index = 0; index < 2; index++) servers.push(await startHttpServer(dir, env));
    for (const server of servers) clients.push(await connectHttp(server.url));
  });
  afterAll(async () => {
    for (const client of clients) await client.close();
    for (const server of servers) await server.stop();
    await upstream?.close();
  });

  it('shows the configured icons on the server and on every tool, embedded as data URIs', async () => {
    for (const client of clients) {
      expect(client.getServerVersion()?.icons).toEqual([
        { src: `data:image/png;base64,${SERVER_ICON.toString('base64')}`, mimeType: 'image/png', sizes: ['64x64'] },
      ]);
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual(['reports_read', 'reports_write']);
      for (const tool of tools) expect(tool.icons?.length, tool.name).toBe(1);
      const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool.icons?.[0]]));
      expect(byName['reports_write']).toEqual({
        src: `data:image/png;base64,${TOOL_ICON.toString('base64')}`,
        mimeType: 'image/png',
        sizes: ['48x48'],
      });
      // The SVG is data: base64 of its bytes, quotes and angle brackets included, never spliced into code.
      expect(byName['reports_read']).toEqual({
        src: `data:image/svg+xml;base64,${Buffer.from(READ_ICON).toString('base64')}`,
        mimeType: 'image/svg+xml',
        sizes: ['any'],
      });
    }
  });

  it('declares resources and the link template', async () => {
    const [client] = clients as [Client];
    expect(client.getServerCapabilities()?.resources).toBeDefined();
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((template) => template.uriTemplate)).toEqual(['openapi-result://results/{tool}/{action}{?arguments}']);
  });

  it('keeps a preview, links the whole answer, and another replica answers the link', async () => {
    const [first, second] = clients as [Client, Client];
    upstream.requests.length = 0;
    const result = await first.callTool({ name: 'reports_read', arguments: { action: 'list', q: 'Quarterly' } });
    expect(result.isError ?? false, textOf(result)).toBe(false);
    const preview = result.structuredContent as unknown[];
    expect(preview.length).toBeGreaterThan(0);
    expect(preview.length).toBeLessThan(REPORTS.length);
    const link = linkOf(result);
    expect(link?.mimeType).toBe('application/json');
    expect(link?.size).toBe(Buffer.byteLength(WHOLE));
    // Clients that show no links read the same in words.
    expect(textOf(result)).toContain(`is at ${link?.uri}: read it with resources/read`);
    // Nothing secret in the link: the request's own arguments only.
    expect(link?.uri).not.toContain('tok-123456789');

    const whole = await read(second, link?.uri ?? '');
    expect(JSON.parse(whole)).toEqual(REPORTS);
    // The read was sent again, as the tool call sent it, with the server's credentials.
    expect(upstream.requests.map((request) => `${request.method} ${request.url}`)).toEqual([
      'GET /v1/reports?q=Quarterly',
      'GET /v1/reports?q=Quarterly',
    ]);
    expect(upstream.requests[1]?.headers['authorization']).toBe('Bearer tok-123456789');
  });

  it('refuses links it did not make, links to writes and links with arguments the action does not take', async () => {
    const [client] = clients as [Client];
    upstream.requests.length = 0;
    await expect(client.readResource({ uri: 'openapi-result://results/reports_read/nope?arguments=%7B%7D' })).rejects.toThrow(
      /Resource not found: This server has no action "nope" of a tool "reports_read"/,
    );
    await expect(client.readResource({ uri: 'openapi-result://results/reports_write/create?arguments=%7B%7D' })).rejects.toThrow(
      /reports_write changes data, so no result link reads it/,
    );
    await expect(
      client.readResource({ uri: `openapi-result://results/reports_read/list?arguments=${encodeURIComponent('{"q":')}` }),
    ).rejects.toThrow(/"arguments" are not JSON/);
    await expect(
      client.readResource({ uri: `openapi-result://results/reports_read/list?arguments=${encodeURIComponent('{"admin":true}')}` }),
    ).rejects.toThrow(/does not take "admin"/);
    await expect(client.readResource({ uri: 'https://example.com/elsewhere' })).rejects.toThrow(/not found/i);
    expect(upstream.requests).toEqual([]);
  });

  it('offers no link where nothing was cut', async () => {
    const [client] = clients as [Client];
    upstream.reply = () => ({ body: JSON.stringify(REPORTS.slice(0, 3)) });
    const result = await client.callTool({ name: 'reports_read', arguments: { action: 'list' } });
    expect(linkOf(result)).toBeUndefined();
    upstream.reply = answer;
  });

  it('offers the status of an accepted export in the same tool, and another replica follows it', async () => {
    const [first, second] = clients as [Client, Client];
    upstream.requests.length = 0;
    const accepted = await first.callTool({ name: 'reports_write', arguments: { action: 'export', reportId: 'r7', format: 'pdf' } });
    expect(accepted.isError ?? false, textOf(accepted)).toBe(false);
    const text = textOf(accepted);
    expect(text).toContain('Accepted: the API answered 202');
    expect(text).toContain('in 3 seconds');
    const handle = /operation_status=("[^"]+")/.exec(text)?.[1];
    expect(handle, text).toBeDefined();
    expect(JSON.parse(handle as string)).toMatch(/^\/reports\/r7\/exports\/e1\?view=status#[\w-]{22}$/);

    const status = await second.callTool({
      name: 'reports_write',
      // The same arguments as the accepted call, which only the status reads: nothing is sent again.
      arguments: { action: 'export', reportId: 'r7', format: 'pdf', operation_status: JSON.parse(handle as string) as string },
    });
    expect(status.isError ?? false, textOf(status)).toBe(false);
    expect(status.structuredContent).toEqual({ id: 'e1', status: 'succeeded' });
    expect(upstream.requests.map((request) => `${request.method} ${request.url}`)).toEqual([
      'POST /v1/reports/r7/exports',
      'GET /v1/reports/r7/exports/e1?view=status',
    ]);
    expect(upstream.requests[1]?.headers['authorization']).toBe('Bearer tok-123456789');
    expect(upstream.requests[1]?.body.byteLength).toBe(0);
  });

  it('follows an operation the description marks as long-running (x-ms-long-running-operation, Operation-Location)', async () => {
    const [client] = clients as [Client];
    const running = await client.callTool({ name: 'reports_write', arguments: { action: 'refresh', reportId: 'r7' } });
    const handle = /operation_status=("[^"]+")/.exec(textOf(running))?.[1];
    expect(handle, textOf(running)).toBeDefined();
    const done = await client.callTool({
      name: 'reports_write',
      arguments: { action: 'refresh', operation_status: JSON.parse(handle as string) as string },
    });
    expect(done.structuredContent).toEqual({ id: 'o5', status: 'succeeded' });
  });

  it('reads no status where no answer of its own pointed, and names a status outside the base URL without calling it', async () => {
    const [client] = clients as [Client];
    upstream.requests.length = 0;
    for (const forged of ['/admin/keys#AAAAAAAAAAAAAAAAAAAAAA', '/reports/r7/exports/e1', 'https://elsewhere.example.com/x']) {
      const refused = await client.callTool({ name: 'reports_write', arguments: { action: 'export', operation_status: forged } });
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toContain('is not a handle this server gave for Action export of reports_write');
    }
    const wrongAction = await client.callTool({ name: 'reports_write', arguments: { action: 'create', operation_status: 'x#y' } });
    expect(textOf(wrongAction)).toContain('goes with "export", "refresh"');
    expect(upstream.requests).toEqual([]);

    const outside = await client.callTool({ name: 'reports_write', arguments: { action: 'export', reportId: 'r8' } });
    expect(textOf(outside)).toContain(
      "reports the status at https://elsewhere.example.com/jobs/9, outside the API's base URL, which this server does not call",
    );
    expect(textOf(outside)).not.toContain('operation_status=');
  });

  it('links the whole answer over stdio too', async () => {
    const client = await connectStdio(dir, { REPORT_CENTER_BASE_URL: `${upstream.url}/v1`, REPORT_CENTER_BEARER: 'tok-123456789' });
    try {
      const { tools } = await client.listTools();
      expect(tools.every((tool) => tool.icons?.length === 1)).toBe(true);
      const result = await client.callTool({ name: 'reports_read', arguments: { action: 'list' } });
      const link = linkOf(result);
      expect(link?.uri).toBe('openapi-result://results/reports_read/list?arguments=%7B%7D');
      expect(JSON.parse(await read(client, link?.uri ?? ''))).toEqual(REPORTS);
    } finally {
      await client.close();
    }
  });
});

describe('the search surface links and follows the same way', () => {
  let dir: string;
  let upstream: Upstream;
  let client: Client;

  beforeAll(async () => {
    dir = await tempDir('result-links-search');
    await generateProject({ spec: fixtureSpec('report-center.yaml'), out: dir, surface: 'search' });
    await linkDependencies(dir);
    await buildProject(dir);
    upstream = await startUpstream();
    upstream.reply = answer;
    client = await connectStdio(dir, { REPORT_CENTER_BASE_URL: `${upstream.url}/v1`, REPORT_CENTER_BEARER: 'tok-123456789' });
  });
  afterAll(async () => {
    await client?.close();
    await upstream?.close();
  });

  it('links a cut read to its whole answer', async () => {
    const result = await client.callTool({ name: 'call_read_action', arguments: { action: 'reports_read.list', arguments: {} } });
    const link = linkOf(result);
    expect(link?.uri).toBe('openapi-result://results/reports_read/list?arguments=%7B%7D');
    expect(JSON.parse(await read(client, link?.uri ?? ''))).toEqual(REPORTS);
  });

  it('follows an accepted export through the same call tool', async () => {
    upstream.requests.length = 0;
    const accepted = await client.callTool({
      name: 'call_write_action',
      arguments: { action: 'reports_write.export', arguments: { reportId: 'r7' } },
    });
    const handle = /operation_status=("[^"]+")/.exec(textOf(accepted))?.[1];
    expect(handle, textOf(accepted)).toBeDefined();
    const status = await client.callTool({
      name: 'call_write_action',
      arguments: {
        action: 'reports_write.export',
        arguments: { reportId: 'r7', operation_status: JSON.parse(handle as string) as string },
      },
    });
    expect(status.structuredContent).toEqual({ id: 'e1', status: 'succeeded' });
    expect(upstream.requests.map((request) => `${request.method} ${request.url}`)).toEqual([
      'POST /v1/reports/r7/exports',
      'GET /v1/reports/r7/exports/e1?view=status',
    ]);
  });
});
