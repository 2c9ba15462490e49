import type { Diagnostics } from '../../diagnostics/diagnostic.js';
import type { JsonObject, MediaTypeModel, OperationModel, ParameterModel, SchemaModel } from '../../model/api-model.js';
import { bodyKindRank } from '../../model/body-kinds.js';
import { rememberObject } from '../../kernel/object-memo.js';
import { bodyFieldsOf } from './body-fields.js';
import { argumentView, isFileSchema, objectShape, type ObjectShape } from './schema-views.js';
import { sanitizeKey, uniqueKey } from './sanitize-key.js';
import type { ArgumentDraft, ActionDraft } from '../drafts.js';

/** Keys the generated server uses itself. */
const RESERVED_KEYS = new Set(['action']);

/**
 * The arguments of an operation: its parameters, then its body fields (a JSON, form or multipart object body is
 * flattened into top-level arguments; any other body is one `body` argument). Keys are valid and readable; a key
 * that two locations share gets the location as prefix (`query_id`), and the original names stay in the route.
 */
export function buildArguments(operation: OperationModel, defs: Record<string, SchemaModel>, diagnostics: Diagnostics): ActionDraft {
  const taken = new Set<string>(RESERVED_KEYS);
  const out: ArgumentDraft[] = [];
  const claim = (name: string, location: string): string => {
    const base = sanitizeKey(name);
    const key = taken.has(base) ? uniqueKey(sanitizeKey(`${location}_${name}`), taken) : base;
    taken.add(key);
    if (key !== name) {
      diagnostics.add({
        severity: 'info',
        code: 'OTM_NAME_ADJUSTED',
        message: `Argument "${name}" of ${operation.key} is called "${key}" in the tool (property keys allow only letters, digits, _ . -).`,
        pointer: operation.pointer,
      });
    }
    return key;
  };
  const locationOrder = { path: 0, query: 1, header: 2, cookie: 3 } as const;
  const parameters = [...operation.parameters].sort((a, b) => locationOrder[a.in] - locationOrder[b.in]);
  for (const parameter of parameters) out.push(parameterArgument(parameter, claim(parameter.name, parameter.in), defs));

  const media = chooseMedia(operation.requestBody?.contents ?? []);
  if (!media || !operation.requestBody) return { operation, arguments: out };
  const bodyRequired = operation.requestBody.required;
  const shape = media.kind === 'json' || media.kind === 'form' || media.kind === 'multipart' ? objectShape(media.schema, defs) : undefined;
  if (shape) {
    for (const [name, schema] of sortedFields(shape)) {
      if (typeof schema !== 'boolean' && schema['readOnly'] === true) continue;
      const key = claim(name, 'body');
      const encoding = media.encoding[name];
      const file = media.kind === 'multipart' && isFileSchema(schema, defs);
      const description = typeof schema === 'object' && typeof schema['description'] === 'string' ? schema['description'] : undefined;
      out.push({
        key,
        schema: file ? fileSchema(description) : argumentView(schema, defs),
        required: bodyRequired && shape.required.has(name),
        ...(description ? { description } : {}),
        route: {
          arg: key,
          in: 'body',
          name,
          required: bodyRequired && shape.required.has(name),
          ...(file ? { file: true } : {}),
          ...(encoding?.contentType ? { contentType: encoding.contentType } : {}),
          ...(encoding?.style ? { style: encoding.style } : {}),
          ...(encoding?.explode !== undefined ? { explode: encoding.explode } : {}),
        },
      });
    }
  } else {
    // Not `body`: many APIs have a body field of that name (a comment's text), and one name keeps one meaning in a
    // tool whose actions take both.
    const key = claim('request_body', 'whole');
    const file = media.kind === 'binary' || isFileSchema(media.schema, defs);
    const description =
      operation.requestBody.description ??
      (typeof media.schema === 'object' && typeof media.schema['description'] === 'string' ? media.schema['description'] : undefined);
    const fields = file || media.kind === 'text' ? undefined : bodyFieldsOf(media.schema, defs);
    out.push({
      key,
      schema: file ? fileSchema(description) : media.kind === 'text' ? { type: 'string' } : argumentView(media.schema, defs),
      required: bodyRequired,
      ...(description ? { description } : {}),
      route: { arg: key, in: 'body-whole', required: bodyRequired, ...(file ? { file: true } : {}) },
      ...(fields ? { fields } : {}),
    });
  }
  return { operation, arguments: out, body: { media, required: bodyRequired } };
}

/**
 * A body's fields sorted by name, so that the order of keys in the description never changes the output; once per
 * shape (shapes are shared: Microsoft Graph's operations send the same entities of hundreds of fields). Only read.
 */
const sortedFields = rememberObject((shape: ObjectShape): ReadonlyArray<[string, SchemaModel]> =>
  [...shape.properties].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
);

/** Inline schemas get the same input view as the named ones in `defs` (no readOnly fields, `oneOf` as `anyOf`). */
function parameterArgument(parameter: ParameterModel, key: string, defs: Record<string, SchemaModel>): ArgumentDraft {
  return {
    key,
    schema: argumentView(parameter.schema, defs),
    required: parameter.required,
    ...(parameter.description ? { description: parameter.description } : {}),
    route: {
      arg: key,
      in: parameter.in,
      name: parameter.name,
      style: parameter.style,
      explode: parameter.explode,
      allowReserved: parameter.allowReserved,
      ...(parameter.contentType ? { json: true } : {}),
      required: parameter.required,
    },
  };
}

/**
 * The media type a model can fill best: JSON, then forms, multipart, text, binary; within a kind a real type before a
 * media range (`application/*+json` is no Content-Type to send); then the description's order.
 */
function chooseMedia(contents: MediaTypeModel[]): MediaTypeModel | undefined {
  const range = (media: MediaTypeModel) => (media.mediaType.includes('*') ? 1 : 0);
  return [...contents].sort((a, b) => bodyKindRank(a.kind) - bodyKindRank(b.kind) || range(a) - range(b))[0];
}

/** Files travel as base64 text (or a data: URL); a path is read only inside the server's upload folder. */
function fileSchema(description: string | undefined): JsonObject {
  const what = description ? `${description.trim().replace(/\.?$/, '.')} ` : '';
  return {
    type: 'string',
    description: `${what}File content as base64 (or a data: URL), or a path inside the server's upload folder.`,
  };
}
