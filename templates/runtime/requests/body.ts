// Request bodies from tool arguments: JSON, form, multipart, text and binary.

import { randomUUID } from 'node:crypto';
import type { ActionRoute, ArgumentRoute } from '../core/types.js';
import { readFileArgument } from './files.js';
import { scalarText, serializeQuery } from './serialize.js';

export type BuiltBody = { body?: string | Blob | FormData; contentType?: string };

type BodyArgument = Extract<ArgumentRoute, { in: 'body' | 'body-whole' }>;

export async function buildBody(
  route: ActionRoute,
  args: Record<string, unknown>,
  uploadDir: string | undefined,
): Promise<BuiltBody> {
  const spec = route.body;
  if (!spec) return {};
  const bodyArguments = route.arguments.filter(
    (argument): argument is BodyArgument => argument.in === 'body' || argument.in === 'body-whole',
  );
  const whole = bodyArguments.find((argument) => argument.in === 'body-whole');
  const fields = bodyArguments.filter(
    (argument): argument is Extract<ArgumentRoute, { in: 'body' }> =>
      argument.in === 'body' && args[argument.arg] !== undefined,
  );
  if (whole) {
    const value = args[whole.arg];
    if (value === undefined) return {};
    if (spec.kind === 'multipart' && (whole.file || typeof value === 'string')) {
      // A multipart body described as one file, with no field to put it in: one part, under the usual name `file`.
      const part = { arg: whole.arg, in: 'body' as const, name: 'file', file: true };
      return multipartBody(await multipartParts([part], args, uploadDir));
    }
    if (spec.kind === 'multipart') {
      // A free-form object: one part per entry, with the same defaults as described fields.
      const object = (
        value !== null && typeof value === 'object' && !Array.isArray(value) ? value : { body: value }
      ) as Record<string, unknown>;
      const entries = Object.keys(object).map((name) => ({ arg: name, in: 'body' as const, name }));
      return multipartBody(await multipartParts(entries, object, uploadDir));
    }
    if (whole.file || spec.kind === 'binary') {
      const file = await readFileArgument(whole.arg, value, uploadDir);
      // `image/*` or `*/*` names a family, not a type: the file's own type (from a data: URL) is more precise.
      return { body: new Blob([file.bytes]), contentType: spec.mediaType.includes('*') ? file.type : spec.mediaType };
    }
    if (spec.kind === 'text')
      return { body: scalarText(value), contentType: spec.mediaType.includes('*') ? 'text/plain' : spec.mediaType };
    if (spec.kind === 'form')
      return { body: formBody(Object.entries((value ?? {}) as Record<string, unknown>)), contentType: spec.mediaType };
    return { body: JSON.stringify(value), contentType: concreteJson(spec.mediaType) };
  }
  if (fields.length === 0 && !spec.required) return {};
  switch (spec.kind) {
    case 'form':
      return {
        body: formBody(
          fields.map((field) => [field.name, args[field.arg]] as [string, unknown]),
          fields,
        ),
        contentType: spec.mediaType,
      };
    case 'multipart':
      return multipartBody(await multipartParts(fields, args, uploadDir));
    default: {
      const object: Record<string, unknown> = {};
      for (const field of fields)
        Object.defineProperty(object, field.name, { value: args[field.arg], enumerable: true });
      return {
        body: JSON.stringify(object),
        contentType: spec.kind === 'json' ? concreteJson(spec.mediaType) : 'application/json',
      };
    }
  }
}

/** A JSON media type to send: a range such as `application/*+json` is not one, so it goes as application/json. */
function concreteJson(mediaType: string): string {
  return mediaType.includes('*') ? 'application/json' : mediaType;
}

/**
 * application/x-www-form-urlencoded: each field serialised like a query parameter with its encoding's style and
 * explode (default form, exploded: arrays repeat their key; Swagger 2.0 csv fields come with explode false). An
 * object without a deepObject encoding travels as JSON text: OpenAPI's default would spread its fields over the
 * top level, where nothing says which object they belonged to.
 */
function formBody(
  entries: Array<[string, unknown]>,
  fields: Array<Extract<ArgumentRoute, { in: 'body' }>> = [],
): string {
  const pairs: string[] = [];
  for (const [name, value] of entries) {
    const field = fields.find((candidate) => candidate.name === name);
    const style = field?.style ?? 'form';
    const plainObject = value !== null && typeof value === 'object' && !Array.isArray(value) && style !== 'deepObject';
    pairs.push(...serializeQuery(name, plainObject ? JSON.stringify(value) : value, style, field?.explode ?? true));
  }
  return pairs.join('&');
}

type Part = { name: string; filename?: string; contentType?: string; data: Uint8Array | string };

/**
 * The parts of a multipart/form-data body, with OpenAPI's default content types: a file part carries its bytes (and
 * the encoding's content type, else the file's own); an object, or an array of objects, is one application/json
 * part; an array of primitives is one text part per item under the same name; a primitive is a text part.
 */
async function multipartParts(
  fields: Array<Extract<ArgumentRoute, { in: 'body' }>>,
  args: Record<string, unknown>,
  uploadDir: string | undefined,
): Promise<Part[]> {
  const parts: Part[] = [];
  for (const field of fields) {
    const value = args[field.arg];
    if (field.file) {
      const file = await readFileArgument(field.arg, value, uploadDir);
      parts.push({
        name: field.name,
        filename: file.name,
        contentType: field.contentType ?? file.type,
        data: file.bytes,
      });
    } else if (
      Array.isArray(value) &&
      !value.some((item) => item !== null && typeof item === 'object') &&
      !field.contentType
    ) {
      for (const item of value) parts.push({ name: field.name, data: scalarText(item) });
    } else if (value !== null && typeof value === 'object') {
      parts.push({
        name: field.name,
        contentType: field.contentType ?? 'application/json',
        data: JSON.stringify(value),
      });
    } else {
      parts.push({
        name: field.name,
        ...(field.contentType ? { contentType: field.contentType } : {}),
        data: scalarText(value),
      });
    }
  }
  return parts;
}

/**
 * Encodes multipart/form-data (RFC 7578) by hand: FormData cannot give a part a content type without making it a
 * file named "blob", and a JSON part must not look like an upload.
 */
export function multipartBody(parts: Part[]): BuiltBody {
  const boundary = `openapi-to-mcp-${randomUUID()}`;
  const chunks: Uint8Array[] = [];
  for (const part of parts) {
    const disposition = `form-data; name="${quoteName(part.name)}"${part.filename !== undefined ? `; filename="${quoteName(part.filename)}"` : ''}`;
    const headers = [`--${boundary}`, `Content-Disposition: ${disposition}`];
    if (part.contentType) headers.push(`Content-Type: ${part.contentType}`);
    chunks.push(
      Buffer.from(`${headers.join('\r\n')}\r\n\r\n`),
      typeof part.data === 'string' ? Buffer.from(part.data) : part.data,
    );
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    body: new Blob(chunks.map((chunk) => new Uint8Array(chunk))),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

/** Names in a Content-Disposition header: quotes and line breaks percent-encoded, as browsers do (WHATWG HTML). */
function quoteName(name: string): string {
  return name.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}
