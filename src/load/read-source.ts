import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import type { Diagnostics } from '../diagnostics/diagnostic.js';
import type { SourceKind } from './openapi-document.js';
import { readDigestedFile, textDigest } from './source-digest.js';

export type SourceText = {
  kind: SourceKind;
  location: string;
  text: string;
  /** What tells this text from another without keeping it: its SHA-256 as read (source-digest.ts). */
  digest: string;
};

export type ReadSourceOptions = {
  spec: string;
  maxBytes: number;
  /**
   * Reads standard input up to `maxBytes` (undefined past it); injected so tests and the programmatic API can supply
   * text, and so the command line's worker thread can ask the main thread for it.
   */
  readStdin?: (maxBytes: number) => Promise<string | undefined>;
};

/** Reads the entry description from a path, `-` (stdin) or an http(s) URL, refusing oversized inputs early. */
export async function readSource(options: ReadSourceOptions, diagnostics: Diagnostics): Promise<SourceText | undefined> {
  const { spec, maxBytes } = options;
  const digested = (text: string) => ({ text, digest: textDigest(text) });
  // A stream (stdin, a pipe, a response without Content-Length) is read only up to the limit: its size is unknown.
  const tooLarge = (bytes?: number) =>
    diagnostics.error(
      'OTM_INPUT_TOO_LARGE',
      bytes === undefined
        ? `The description is larger than the limit of ${(maxBytes / 1048576).toFixed(0)} MB.`
        : `The description is ${(bytes / 1048576).toFixed(1)} MB, over the limit of ${(maxBytes / 1048576).toFixed(0)} MB.`,
      { hint: 'Raise the limit with --max-input-mb if the document is genuine.' },
    );
  try {
    if (spec === '-') {
      const text = options.readStdin ? await options.readStdin(maxBytes) : await readStream(process.stdin, maxBytes);
      if (text === undefined) return void tooLarge();
      if (Buffer.byteLength(text) > maxBytes) return void tooLarge(Buffer.byteLength(text));
      return { kind: 'stdin', location: '<stdin>', ...digested(text) };
    }
    if (/^https?:\/\//i.test(spec)) {
      const response = await fetch(spec, { redirect: 'follow', signal: AbortSignal.timeout(30_000) });
      if (!response.ok) {
        diagnostics.error('OTM_INPUT_UNREADABLE', `Fetching ${spec} failed with HTTP ${response.status}.`);
        return undefined;
      }
      const declared = Number(response.headers.get('content-length') ?? '0');
      if (declared > maxBytes) return void tooLarge(declared);
      const text = await readLimited(response, maxBytes);
      if (text === undefined) return void tooLarge();
      return { kind: 'url', location: spec, ...digested(text) };
    }
    const info = await stat(spec);
    if (info.isDirectory()) {
      diagnostics.error('OTM_INPUT_UNREADABLE', `${spec} is a folder, not a description file.`, {
        hint: 'Pass the entry file of a multi-file description (the one with `openapi:` or `swagger:` at its root).',
      });
      return undefined;
    }
    if (info.size > maxBytes) return void tooLarge(info.size);
    if (info.isFile()) return { kind: 'file', location: spec, ...(await readDigestedFile(spec)) };
    // A pipe or device (`<(curl …)`, /dev/stdin) has no size up front: read it with the limit.
    const text = await readStream(createReadStream(spec), maxBytes);
    if (text === undefined) return void tooLarge();
    return { kind: 'file', location: spec, ...digested(text) };
  } catch (error) {
    const reason = error instanceof Error ? error.message.replace(/^[A-Z]+: /, '') : String(error);
    diagnostics.error('OTM_INPUT_UNREADABLE', `Cannot read ${spec === '-' ? 'standard input' : spec}: ${reason}`);
    return undefined;
  }
}

/** A response body as text, or undefined as soon as it passes `maxBytes` (the rest is never read). */
export async function readLimited(response: Response, maxBytes: number): Promise<string | undefined> {
  if (!response.body) return '';
  return readStream(response.body, maxBytes, () => void response.body?.cancel().catch(() => undefined));
}

/**
 * Reads a stream as UTF-8 text, stopping as soon as it passes `maxBytes`: memory stays bounded whatever is piped in
 * (a 5 GB file, /dev/zero). Undefined means the stream was larger than the limit.
 */
export async function readStream(
  stream: AsyncIterable<Uint8Array | string>,
  maxBytes: number,
  cancel: () => void = () => (stream as Partial<Readable>).destroy?.(),
): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    total += bytes.byteLength;
    if (total > maxBytes) {
      cancel();
      return undefined;
    }
    chunks.push(bytes);
  }
  return Buffer.concat(chunks).toString('utf8');
}
