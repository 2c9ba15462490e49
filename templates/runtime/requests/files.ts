// File arguments: base64 content, a data: URL, or a path inside the configured upload folder.
// Reading arbitrary paths would let a model upload any file of the machine, so paths are refused
// unless <PREFIX>_UPLOAD_DIR names a folder, and then only paths inside it are read.

import { readFile, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { ArgumentError } from '../core/errors.js';

const MAX_FILE_BYTES = 100 * 1024 * 1024;

export type FileContent = { bytes: Uint8Array<ArrayBuffer>; name: string; type: string };

export async function readFileArgument(
  arg: string,
  value: unknown,
  uploadDir: string | undefined,
): Promise<FileContent> {
  if (typeof value !== 'string' || value === '')
    throw new ArgumentError(`Argument "${arg}" must be a file: base64 text, a data: URL, or a path.`);
  const dataUrl = /^data:([^;,]*)(;base64)?,(.*)$/s.exec(value);
  if (dataUrl) {
    const bytes = new Uint8Array(
      dataUrl[2] ? Buffer.from(dataUrl[3] ?? '', 'base64') : Buffer.from(decodeURIComponent(dataUrl[3] ?? '')),
    );
    return { bytes, name: arg, type: dataUrl[1] || 'application/octet-stream' };
  }
  if (value.startsWith('base64:'))
    return { bytes: decodeBase64(arg, value.slice(7)), name: arg, type: 'application/octet-stream' };
  if (uploadDir) return readFromUploadDir(arg, value, uploadDir);
  return { bytes: decodeBase64(arg, value), name: arg, type: 'application/octet-stream' };
}

function decodeBase64(arg: string, text: string): Uint8Array<ArrayBuffer> {
  const compact = text.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(compact) || compact.length % 4 === 1) {
    throw new ArgumentError(
      `Argument "${arg}" is not base64 content. Pass the file as base64 (or a data: URL); paths are accepted only when the server sets an upload folder.`,
    );
  }
  return new Uint8Array(Buffer.from(compact, 'base64'));
}

async function readFromUploadDir(arg: string, value: string, uploadDir: string): Promise<FileContent> {
  const root = await realpath(uploadDir);
  let target: string;
  try {
    target = await realpath(path.resolve(root, value));
  } catch {
    throw new ArgumentError(`Argument "${arg}": no file ${JSON.stringify(value)} in the upload folder.`);
  }
  const relative = path.relative(root, target);
  if (relative.startsWith('..') || path.isAbsolute(relative))
    throw new ArgumentError(`Argument "${arg}": the file must be inside the upload folder.`);
  const info = await stat(target);
  if (!info.isFile()) throw new ArgumentError(`Argument "${arg}": ${JSON.stringify(value)} is not a file.`);
  if (info.size > MAX_FILE_BYTES)
    throw new ArgumentError(`Argument "${arg}": the file is larger than ${MAX_FILE_BYTES / 1048576} MB.`);
  return { bytes: await readFile(target), name: path.basename(target), type: 'application/octet-stream' };
}
