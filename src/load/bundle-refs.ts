import { readFileSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Diagnostics } from '../diagnostics/diagnostic.js';
import { pointerOf } from '../diagnostics/json-pointer.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../kernel/json.js';
import { readLimited } from './read-source.js';

export type BundleOptions = {
  /** Absolute path or URL of the entry description, the base for relative `$ref`s. */
  base: string;
  /** Folder (or URL prefix) that file `$ref`s may not leave. */
  refRoot: string;
  allowRemoteRefs: boolean;
  maxBytes: number;
  /** Told each local file read (its real path), for callers that watch the files a description is made of. */
  onFileRead?: (file: string) => void;
};

/**
 * Removes vendor extensions (`x-…`) that hold `$ref`s to other documents. Extensions carry nothing the generator
 * needs from other files, and real descriptions point them at files that were never published (Spotify).
 */
export function pruneExtensionRefs(root: JsonObject, diagnostics: Diagnostics): JsonObject {
  const prune = (node: JsonValue, tokens: string[]): JsonValue => {
    if (Array.isArray(node)) return node.map((item, index) => prune(item, [...tokens, String(index)]));
    if (!isJsonObject(node)) return node;
    const out: JsonObject = {};
    for (const [key, value] of Object.entries(node)) {
      if (key.startsWith('x-') && containsExternalRef(value)) {
        diagnostics.add({
          severity: 'info',
          code: 'OTM_REF_UNRESOLVED',
          message: `Ignored the vendor extension ${key}: it refers to another document and the generator does not use it.`,
          pointer: pointerOf(...tokens, key),
        });
        continue;
      }
      out[key] = prune(value, [...tokens, key]);
    }
    return out;
  };
  return prune(root, []) as JsonObject;
}

function containsExternalRef(node: JsonValue): boolean {
  if (Array.isArray(node)) return node.some(containsExternalRef);
  if (!isJsonObject(node)) return false;
  return Object.entries(node).some(
    ([key, value]) => (key === '$ref' && typeof value === 'string' && !value.startsWith('#')) || containsExternalRef(value),
  );
}

type RefParserError = { name?: string; code?: string; message?: string; source?: string; path?: string[] };

/**
 * Joins a multi-file description into one document with swagger-parser's bundler. File references are read only
 * inside `refRoot`; network references only with `allowRemoteRefs`. Every failed reference becomes an error.
 */
export async function bundleRefs(root: JsonObject, options: BundleOptions, diagnostics: Diagnostics): Promise<JsonObject | undefined> {
  let bytesRead = 0;
  const rootDir = options.refRoot;
  // The bundler wraps errors thrown by readers in its own message; why a read was refused is kept here.
  const rejections = new Map<string, RefRejection['reason']>();
  const reject = (reason: RefRejection['reason'], target: string): never => {
    rejections.set(target, reason);
    throw new RefRejection(reason, target);
  };
  const readFile = (file: { url: string }) => {
    const target = file.url.startsWith('file:') ? fileURLToPath(file.url) : file.url;
    const real = safeRealpath(target);
    if (!isInside(real, rootDir)) reject('outside', target);
    // Checked before reading: a FIFO would block the generator forever and a device (or a huge file) would fill memory.
    const info = statSync(real, { throwIfNoEntry: false });
    if (info && !info.isFile()) reject('not-file', target);
    if (info && bytesRead + info.size > options.maxBytes) reject('too-large', target);
    const content = readFileSync(real);
    options.onFileRead?.(real);
    bytesRead += content.byteLength;
    if (bytesRead > options.maxBytes) reject('too-large', target);
    return content;
  };
  const readRemote = async (file: { url: string }) => {
    const remoteAllowed = options.allowRemoteRefs || (/^https?:/i.test(rootDir) && file.url.startsWith(rootDir));
    if (!remoteAllowed) reject('remote', file.url);
    const response = await fetch(file.url, { redirect: 'error', signal: AbortSignal.timeout(20_000) });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    const text = await readLimited(response, options.maxBytes - bytesRead);
    if (text === undefined) return reject('too-large', file.url);
    const content = Buffer.from(text);
    bytesRead += content.byteLength;
    return content;
  };
  try {
    // Loaded only for multi-file descriptions: most are one file, and the bundler is a large module graph.
    const { default: SwaggerParser } = await import('@apidevtools/swagger-parser');
    const bundled = await SwaggerParser.bundle(
      options.base,
      structuredClone(root) as never,
      {
        continueOnError: true,
        resolve: {
          external: true,
          file: { order: 1, canRead: (file: { url: string }) => !/^https?:/i.test(file.url), read: readFile },
          http: { order: 2, canRead: /^https?:/i, read: readRemote },
        },
      } as never,
    );
    return bundled as unknown as JsonObject;
  } catch (error) {
    const group = error as { errors?: RefParserError[] };
    const errors = group.errors && group.errors.length > 0 ? group.errors : [error as RefParserError];
    for (const item of errors) reportRefError(item, options, rejections, diagnostics);
    if (!diagnostics.hasErrors) diagnostics.error('OTM_REF_UNRESOLVED', `Bundling the description failed: ${String(error)}`);
    return undefined;
  }
}

class RefRejection extends Error {
  constructor(
    readonly reason: 'outside' | 'remote' | 'too-large' | 'not-file',
    readonly target: string,
  ) {
    super(`${reason}: ${target}`);
  }
}

function reportRefError(
  error: RefParserError,
  options: BundleOptions,
  rejections: Map<string, RefRejection['reason']>,
  diagnostics: Diagnostics,
): void {
  const pointer = error.path ? pointerOf(...error.path) : undefined;
  const file = error.source && error.source !== options.base ? displayPath(error.source) : undefined;
  const message = error.message ?? String(error);
  const where = { pointer, ...(file ? { file } : {}) };
  const target = [...rejections.keys()].find((candidate) => message.includes(candidate));
  const rejected = target ? [message, rejections.get(target), target] : undefined;
  if (rejected?.[1] === 'outside') {
    diagnostics.error('OTM_REF_OUTSIDE_ROOT', `A $ref reads ${displayPath(rejected[2] ?? '')}, outside ${displayPath(options.refRoot)}.`, {
      ...where,
      hint: 'File references stay inside the description’s folder; pass --ref-root <folder> to allow a wider one.',
    });
  } else if (rejected?.[1] === 'remote') {
    diagnostics.error('OTM_REF_REMOTE_BLOCKED', `A $ref points at ${rejected[2]}, a network address.`, {
      ...where,
      hint: 'Save the document locally, or pass --allow-remote-refs if you trust its host.',
    });
  } else if (rejected?.[1] === 'too-large') {
    diagnostics.error('OTM_INPUT_TOO_LARGE', 'The referenced documents together exceed the input size limit.', {
      ...where,
      hint: 'Raise the limit with --max-input-mb.',
    });
  } else if (rejected?.[1] === 'not-file') {
    diagnostics.error('OTM_REF_UNRESOLVED', `A $ref reads ${displayPath(rejected[2] ?? '')}, which is not a regular file.`, {
      ...where,
      hint: 'References must name description files; pipes and devices are never read.',
    });
  } else if (/Maximum call stack size exceeded/.test(message)) {
    diagnostics.error('OTM_INPUT_TOO_COMPLEX', 'A referenced document nests too deeply to be read.', {
      ...where,
      hint: 'Move deep structures into components joined by $ref.',
    });
  } else {
    diagnostics.error('OTM_REF_UNRESOLVED', `A $ref cannot be resolved: ${message.replace(/\s+/g, ' ').trim()}`, {
      ...where,
      hint: 'Check the file name and the JSON pointer after `#`.',
    });
  }
}

function safeRealpath(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return path.resolve(file);
  }
}

function isInside(file: string, folder: string): boolean {
  if (/^https?:/i.test(folder)) return false;
  const relative = path.relative(safeRealpath(folder), file);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

function displayPath(file: string): string {
  if (/^https?:/i.test(file)) return file;
  const relative = path.relative(process.cwd(), file);
  return relative.startsWith('..') ? file : relative || '.';
}
