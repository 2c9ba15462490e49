// Request bodies from tool arguments: JSON, form, multipart, text and binary.

import { readFileArgument } from './files.js';
import { scalarText } from './serialize.js';
import type { ActionRoute, ArgumentRoute } from './types.js';

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
    if (whole.file || spec.kind === 'binary') {
      const file = await readFileArgument(whole.arg, value, uploadDir);
      return { body: new Blob([file.bytes]), contentType: spec.mediaType };
    }
    if (spec.kind === 'text') return { body: scalarText(value), contentType: spec.mediaType };
    if (spec.kind === 'form')
      return { body: formBody(Object.entries((value ?? {}) as Record<string, unknown>)), contentType: spec.mediaType };
    return { body: JSON.stringify(value), contentType: spec.mediaType };
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
      return { body: await multipartBody(fields, args, uploadDir) };
    default: {
      const object: Record<string, unknown> = {};
      for (const field of fields)
        Object.defineProperty(object, field.name, { value: args[field.arg], enumerable: true });
      return { body: JSON.stringify(object), contentType: spec.kind === 'json' ? spec.mediaType : 'application/json' };
    }
  }
}

/** application/x-www-form-urlencoded; arrays repeat their key (form, explode) unless the encoding says otherwise. */
function formBody(
  entries: Array<[string, unknown]>,
  fields: Array<Extract<ArgumentRoute, { in: 'body' }>> = [],
): string {
  const pairs: string[] = [];
  for (const [name, value] of entries) {
    const field = fields.find((candidate) => candidate.name === name);
    const explode = field?.explode ?? true;
    const key = encodeURIComponent(name);
    if (Array.isArray(value)) {
      if (explode && (field?.style ?? 'form') === 'form')
        for (const item of value) pairs.push(`${key}=${encodeURIComponent(scalarText(item))}`);
      else
        pairs.push(
          `${key}=${value.map((item) => encodeURIComponent(scalarText(item))).join(field?.style === 'spaceDelimited' ? '%20' : field?.style === 'pipeDelimited' ? '|' : ',')}`,
        );
    } else if (value !== null && typeof value === 'object' && field?.style === 'deepObject') {
      for (const [inner, item] of Object.entries(value as Record<string, unknown>))
        pairs.push(`${encodeURIComponent(`${name}[${inner}]`)}=${encodeURIComponent(scalarText(item))}`);
    } else {
      pairs.push(`${key}=${encodeURIComponent(scalarText(value))}`);
    }
  }
  return pairs.join('&');
}

/** multipart/form-data; files become parts with their content, objects and arrays JSON parts (the OpenAPI default). */
async function multipartBody(
  fields: Array<Extract<ArgumentRoute, { in: 'body' }>>,
  args: Record<string, unknown>,
  uploadDir: string | undefined,
): Promise<FormData> {
  const form = new FormData();
  for (const field of fields) {
    const value = args[field.arg];
    if (field.file) {
      const file = await readFileArgument(field.arg, value, uploadDir);
      form.append(field.name, new Blob([file.bytes], { type: field.contentType ?? file.type }), file.name);
    } else if (Array.isArray(value) && !field.contentType) {
      for (const item of value) form.append(field.name, scalarText(item));
    } else if (value !== null && typeof value === 'object') {
      if (field.contentType) form.append(field.name, new Blob([JSON.stringify(value)], { type: field.contentType }));
      else form.append(field.name, JSON.stringify(value));
    } else {
      form.append(field.name, scalarText(value));
    }
  }
  return form;
}
