// The upstream the scorer points a generated server at: it records every request (method, path, query, body) and
// answers 200 with a small JSON body, or 204 for DELETE.
import { createServer } from 'node:http';

const BODY = JSON.stringify({ ok: true, id: '1' });

export async function startRecorder() {
  let requests = [];
  const server = createServer((request, response) => {
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => {
      requests.push({
        method: request.method,
        url: request.url,
        contentType: request.headers['content-type'] ?? '',
        body: Buffer.concat(chunks),
      });
      if (request.method === 'DELETE') response.writeHead(204).end();
      else {
        response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(BODY) });
        response.end(BODY);
      }
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    /** The requests recorded since the last call, and a fresh start. */
    take() {
      const taken = requests;
      requests = [];
      return taken;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}

/** A recorded request as the scorer compares it: path, query (key → list of values) and body fields. */
export function decodeRequest(recorded) {
  const url = new URL(recorded.url, 'http://recorder');
  const query = {};
  for (const [key, value] of url.searchParams) (query[key] ??= []).push(value);
  return { method: recorded.method, path: url.pathname, query, body: decodeBody(recorded), contentType: recorded.contentType };
}

function decodeBody(recorded) {
  const text = recorded.body.toString('utf8');
  if (text.length === 0) return undefined;
  const type = recorded.contentType.toLowerCase();
  if (type.includes('json')) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  if (type.includes('x-www-form-urlencoded')) return formFields(new URLSearchParams(text));
  if (type.includes('multipart/form-data')) return multipartFields(text, type);
  return text;
}

function formFields(params) {
  const fields = {};
  for (const [key, value] of params) {
    if (key in fields) fields[key] = [].concat(fields[key], value);
    else fields[key] = value;
  }
  return fields;
}

/** The text parts of a multipart body (files as their file name), enough to compare fields. */
function multipartFields(text, type) {
  const boundary = /boundary="?([^";]+)"?/.exec(type)?.[1];
  if (!boundary) return text;
  const fields = {};
  for (const part of text.split(`--${boundary}`)) {
    const [head, ...rest] = part.split('\r\n\r\n');
    const name = /name="([^"]*)"/.exec(head ?? '')?.[1];
    if (!name) continue;
    const value = rest.join('\r\n\r\n').replace(/\r\n$/, '');
    let parsed = value;
    if (/content-type:\s*application\/json/i.test(head)) {
      try {
        parsed = JSON.parse(value);
      } catch {
        parsed = value;
      }
    }
    if (name in fields) fields[name] = [].concat(fields[name], parsed);
    else fields[name] = parsed;
  }
  return fields;
}
