import { readFile, stat } from 'node:fs/promises';
import type { Diagnostics } from '../diagnostics/diagnostic.js';
import type { SourceKind } from './openapi-document.js';

export type SourceText = { kind: SourceKind; location: string; text: string };

export type ReadSourceOptions = {
  spec: string;
  maxBytes: number;
  /** Reads standard input; injected so tests and the programmatic API can supply text. */
  readStdin?: () => Promise<string>;
};

/** Reads the entry description from a path, `-` (stdin) or an http(s) URL, refusing oversized inputs early. */
export async function readSource(options: ReadSourceOptions, diagnostics: Diagnostics): Promise<SourceText | undefined> {
  const { spec, maxBytes } = options;
  const tooLarge = (bytes: number) =>
    diagnostics.error(
      'OTM_INPUT_TOO_LARGE',
      `The description is ${(bytes / 1048576).toFixed(1)} MB, over the limit of ${(maxBytes / 1048576).toFixed(0)} MB.`,
      { hint: 'Raise the limit with --max-input-mb if the document is genuine.' },
    );
  try {
    if (spec === '-') {
      const text = await (options.readStdin ?? readStdin)();
      if (Buffer.byteLength(text) > maxBytes) return void tooLarge(Buffer.byteLength(text));
      return { kind: 'stdin', location: '<stdin>', text };
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
      if (text === undefined) return void tooLarge(maxBytes + 1);
      return { kind: 'url', location: spec, text };
    }
    const info = await stat(spec);
    if (info.isDirectory()) {
      diagnostics.error('OTM_INPUT_UNREADABLE', `${spec} is a folder, not a description file.`, {
        hint: 'Pass the entry file of a multi-file description (the one with `openapi:` or `swagger:` at its root).',
      });
      return undefined;
    }
    if (info.size > maxBytes) return void tooLarge(info.size);
    return { kind: 'file', location: spec, text: await readFile(spec, 'utf8') };
  } catch (error) {
    const reason = error instanceof Error ? error.message.replace(/^[A-Z]+: /, '') : String(error);
    diagnostics.error('OTM_INPUT_UNREADABLE', `Cannot read ${spec === '-' ? 'standard input' : spec}: ${reason}`);
    return undefined;
  }
}

async function readLimited(response: Response, maxBytes: number): Promise<string | undefined> {
  if (!response.body) return '';
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of response.body) {
    total += chunk.byteLength;
    if (total > maxBytes) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function readStdin(): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    process.stdin.on('data', (chunk: Buffer) => chunks.push(chunk));
    process.stdin.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    process.stdin.on('error', reject);
  });
}
