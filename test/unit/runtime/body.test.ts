import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildBody } from '../../../templates/runtime/requests/body.js';
import type { ActionRoute, ArgumentRoute } from '../../../templates/runtime/core/types.js';

function route(kind: NonNullable<ActionRoute['body']>['kind'], mediaType: string, args: ArgumentRoute[], required = true): ActionRoute {
  return {
    operationId: 'op',
    method: 'post',
    path: '/x',
    arguments: args,
    required: [],
    body: { mediaType, kind, required },
    security: [],
    accepts: [],
  };
}

/** Reads a built body back as the receiving server would. */
async function received(built: { body?: string | Blob | FormData; contentType?: string }) {
  const response = new Response(built.body ?? null, built.contentType ? { headers: { 'content-type': built.contentType } } : {});
  return response;
}

describe('JSON bodies', () => {
  it('rebuilds the object from flattened arguments, under the original property names', async () => {
    const built = await buildBody(
      route('json', 'application/json', [
        { arg: 'name', in: 'body', name: 'name' },
        { arg: 'body_id', in: 'body', name: 'id' },
        { arg: 'tags', in: 'body', name: 'tags' },
      ]),
      { name: 'Rex', body_id: 3, tags: [{ name: 'a' }] },
      undefined,
    );
    expect(built.contentType).toBe('application/json');
    expect(JSON.parse(String(built.body))).toEqual({ name: 'Rex', id: 3, tags: [{ name: 'a' }] });
  });

  it('sends {} for a required body without fields, and nothing for an optional one', async () => {
    const fields: ArgumentRoute[] = [{ arg: 'note', in: 'body', name: 'note' }];
    expect((await buildBody(route('json', 'application/json', fields, true), {}, undefined)).body).toBe('{}');
    expect(await buildBody(route('json', 'application/json', fields, false), {}, undefined)).toEqual({});
  });

  it('keeps a vendor JSON media type (json-patch) and sends a whole-body array as is', async () => {
    const built = await buildBody(
      route('json', 'application/json-patch+json', [{ arg: 'body', in: 'body-whole' }]),
      { body: [{ op: 'replace', path: '/a', value: 1 }] },
      undefined,
    );
    expect(built.contentType).toBe('application/json-patch+json');
    expect(JSON.parse(String(built.body))).toEqual([{ op: 'replace', path: '/a', value: 1 }]);
  });

  it('does not let a __proto__ argument change the prototype of the body', async () => {
    const args = JSON.parse('{"proto":{"polluted":true}}') as Record<string, unknown>;
    const built = await buildBody(route('json', 'application/json', [{ arg: 'proto', in: 'body', name: '__proto__' }]), args, undefined);
    expect(String(built.body)).toBe('{"__proto__":{"polluted":true}}');
  });
});

describe('form-urlencoded bodies', () => {
  it('encodes pairs, repeats exploded arrays and joins non-exploded ones (Swagger 2.0 csv)', async () => {
    const built = await buildBody(
      route('form', 'application/x-www-form-urlencoded', [
        { arg: 'channel', in: 'body', name: 'channel' },
        { arg: 'text', in: 'body', name: 'text' },
        { arg: 'ids', in: 'body', name: 'ids' },
        { arg: 'users', in: 'body', name: 'users', style: 'form', explode: false },
        { arg: 'filter', in: 'body', name: 'filter', style: 'deepObject', explode: true },
      ]),
      { channel: 'C1', text: 'a b&c=d+é', ids: [1, 2], users: ['U1', 'U2'], filter: { status: 'open' } },
      undefined,
    );
    expect(built.contentType).toBe('application/x-www-form-urlencoded');
    expect(built.body).toBe('channel=C1&text=a%20b%26c%3Dd%2B%C3%A9&ids=1&ids=2&users=U1,U2&filter%5Bstatus%5D=open');
    const form = await (await received(built)).formData();
    expect(form.get('text')).toBe('a b&c=d+é');
    expect(form.get('users')).toBe('U1,U2');
  });
});

describe('multipart bodies', () => {
  const fields: ArgumentRoute[] = [
    { arg: 'file', in: 'body', name: 'file', file: true },
    { arg: 'purpose', in: 'body', name: 'purpose' },
    { arg: 'tags', in: 'body', name: 'tags' },
    { arg: 'import', in: 'body', name: 'import' },
  ];

  it('sends a base64 file, text fields, repeated array parts and a JSON part for an object', async () => {
    const built = await buildBody(
      route('multipart', 'multipart/form-data', fields),
      { file: Buffer.from('hello').toString('base64'), purpose: 'fine-tune', tags: ['a', 'b'], import: { config: true } },
      undefined,
    );
    expect(built.contentType).toMatch(/^multipart\/form-data; boundary=openapi-to-mcp-/);
    const form = await (await received(built)).formData();
    const file = form.get('file') as File;
    expect(await file.text()).toBe('hello');
    expect(file.type).toBe('application/octet-stream');
    expect(form.get('purpose')).toBe('fine-tune');
    expect(form.getAll('tags')).toEqual(['a', 'b']);
    expect(JSON.parse(String(form.get('import')))).toEqual({ config: true });
    // A JSON part is a field, not an upload: no filename (FormData would have called it "blob").
    const raw = await new Response(built.body ?? null).text();
    expect(raw).toContain('Content-Disposition: form-data; name="import"\r\nContent-Type: application/json\r\n');
    expect(raw).not.toContain('filename="blob"');
  });

  it('takes the type and bytes of a data: URL, and the encoding content type over both', async () => {
    const built = await buildBody(
      route('multipart', 'multipart/form-data', [
        { arg: 'file', in: 'body', name: 'file', file: true },
        { arg: 'image', in: 'body', name: 'image', file: true, contentType: 'image/png' },
      ]),
      { file: 'data:text/csv;base64,YSxiCjEsMg==', image: 'data:application/octet-stream;base64,iVBORw==' },
      undefined,
    );
    const form = await (await received(built)).formData();
    expect((form.get('file') as File).type).toBe('text/csv');
    expect(await (form.get('file') as File).text()).toBe('a,b\n1,2');
    expect((form.get('image') as File).type).toBe('image/png');
  });

  it('reads a path only inside the upload folder', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'uploads-'));
    await writeFile(path.join(dir, 'report.csv'), 'x,y');
    const built = await buildBody(route('multipart', 'multipart/form-data', [fields[0] as ArgumentRoute]), { file: 'report.csv' }, dir);
    const file = (await (await received(built)).formData()).get('file') as File;
    expect(file.name).toBe('report.csv');
    expect(await file.text()).toBe('x,y');
    await expect(
      buildBody(route('multipart', 'multipart/form-data', [fields[0] as ArgumentRoute]), { file: '../../etc/passwd' }, dir),
    ).rejects.toThrow(/upload folder/);
  });

  it('escapes quotes and line breaks in part names', async () => {
    const built = await buildBody(
      route('multipart', 'multipart/form-data', [{ arg: 'odd', in: 'body', name: 'a"b\r\nc' }]),
      { odd: 'v' },
      undefined,
    );
    expect(await new Response(built.body ?? null).text()).toContain('name="a%22b%0D%0Ac"');
  });
});

describe('binary and text bodies', () => {
  it('sends raw bytes with the media type, or the file type when the description gives a wildcard', async () => {
    const octet = await buildBody(
      route('binary', 'application/octet-stream', [{ arg: 'body', in: 'body-whole', file: true }]),
      {
        body: Buffer.from([0, 1, 2]).toString('base64'),
      },
      undefined,
    );
    expect(octet.contentType).toBe('application/octet-stream');
    expect(new Uint8Array(await (octet.body as Blob).arrayBuffer())).toEqual(new Uint8Array([0, 1, 2]));
    const image = await buildBody(
      route('binary', 'image/*', [{ arg: 'body', in: 'body-whole', file: true }]),
      {
        body: 'data:image/jpeg;base64,/9j/4A==',
      },
      undefined,
    );
    expect(image.contentType).toBe('image/jpeg');
  });

  it('sends text as is', async () => {
    const built = await buildBody(route('text', 'application/sdp', [{ arg: 'body', in: 'body-whole' }]), { body: 'v=0\r\n' }, undefined);
    expect(built).toEqual({ body: 'v=0\r\n', contentType: 'application/sdp' });
  });

  it('sends a multipart body described as one file as a single part named file (Codat attachments)', async () => {
    const built = await buildBody(
      route('multipart', 'multipart/form-data', [{ arg: 'body', in: 'body-whole', file: true }]),
      { body: 'aGVsbG8=' },
      undefined,
    );
    const form = await (await received(built)).formData();
    expect([...form.keys()]).toEqual(['file']);
    expect(await (form.get('file') as Blob).text()).toBe('hello');
  });

  it('sends a free-form multipart object as one part per entry', async () => {
    const built = await buildBody(
      route('multipart', 'multipart/form-data', [{ arg: 'body', in: 'body-whole' }]),
      { body: { note: 'hi', meta: { a: 1 } } },
      undefined,
    );
    const form = await (await received(built)).formData();
    expect(form.get('note')).toBe('hi');
    expect(form.get('meta')).toBe('{"a":1}');
    expect([...form.keys()]).toEqual(['note', 'meta']);
  });

  it('never sends a media range as the Content-Type (GitHub Enterprise Server uploads take */*)', async () => {
    const text = await buildBody(route('text', 'text/*', [{ arg: 'body', in: 'body-whole' }]), { body: 'hello' }, undefined);
    expect(text.contentType).toBe('text/plain');
    const any = await buildBody(route('binary', '*/*', [{ arg: 'body', in: 'body-whole', file: true }]), { body: 'aGVsbG8=' }, undefined);
    expect(any.contentType).toBe('application/octet-stream');
  });
});
