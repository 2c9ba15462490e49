import type { Diagnostics } from '../diagnostics/diagnostic.js';
import { childPointer } from '../diagnostics/json-pointer.js';
import { isJsonObject, setOwn, type JsonObject, type JsonValue } from '../kernel/json.js';
import type { MediaTypeModel, ParameterStyle, RequestBodyModel, ResponseModel } from './api-model.js';
import type { SchemaConverter } from './build-schema.js';
import { collectionStyle, swagger2Schema } from './build-parameters.js';
import { bodyKindOf } from './body-kinds.js';
import { isJsonMediaType } from '../kernel/media-types.js';
import { resolveObject, stringOf } from './resolve-ref.js';

export type BodyContext = { root: JsonObject; schemas: SchemaConverter; diagnostics: Diagnostics };

/**
 * An OAS 3.x Request Body Object → RequestBodyModel.
 * @see https://spec.openapis.org/oas/v3.1.0#request-body-object
 */
export function buildRequestBody3(value: JsonValue, pointer: string, context: BodyContext): RequestBodyModel | undefined {
  const resolved = resolveObject(context.root, value, pointer, context.diagnostics);
  if (!resolved) return undefined;
  const { node } = resolved;
  const content = isJsonObject(node['content']) ? node['content'] : {};
  const contents: MediaTypeModel[] = [];
  for (const [mediaType, media] of Object.entries(content)) {
    if (!isJsonObject(media)) continue;
    const mediaPointer = childPointer(resolved.pointer, 'content', mediaType);
    contents.push({
      mediaType,
      kind: bodyKindOf(mediaType),
      schema: media['schema'] === undefined ? {} : context.schemas.convert(media['schema'], childPointer(mediaPointer, 'schema')),
      encoding: encodingOf(media['encoding']),
    });
  }
  if (contents.length === 0) return undefined;
  const description = stringOf(node['description']);
  return { required: node['required'] === true, ...(description ? { description } : {}), contents, pointer: resolved.pointer };
}

function encodingOf(value: JsonValue | undefined): MediaTypeModel['encoding'] {
  const out: MediaTypeModel['encoding'] = {};
  if (!isJsonObject(value)) return out;
  for (const [property, encoding] of Object.entries(value)) {
    if (!isJsonObject(encoding)) continue;
    setOwn(out, property, {
      ...(typeof encoding['contentType'] === 'string' ? { contentType: encoding['contentType'] } : {}),
      ...(typeof encoding['style'] === 'string' ? { style: encoding['style'] as ParameterStyle } : {}),
      ...(typeof encoding['explode'] === 'boolean' ? { explode: encoding['explode'] } : {}),
    });
  }
  return out;
}

/**
 * Swagger 2.0 `in: body` and `in: formData` parameters → one RequestBodyModel, so that both arrive intact.
 * @see https://swagger.io/specification/v2/#parameter-object
 */
export function buildRequestBody2(
  parameters: Array<{ node: JsonObject; pointer: string }>,
  consumes: string[],
  context: BodyContext,
): RequestBodyModel | undefined {
  const body = parameters.find((parameter) => parameter.node['in'] === 'body');
  const formData = parameters.filter((parameter) => parameter.node['in'] === 'formData');
  if (body) {
    const jsonTypes = consumes.filter(isJsonMediaType);
    const mediaTypes = jsonTypes.length > 0 ? jsonTypes : consumes.length > 0 ? consumes : ['application/json'];
    const schema = context.schemas.convert(body.node['schema'], childPointer(body.pointer, 'schema'));
    const description = stringOf(body.node['description']);
    return {
      required: body.node['required'] === true,
      ...(description ? { description } : {}),
      contents: mediaTypes.map((mediaType) => ({ mediaType, kind: bodyKindOf(mediaType), schema, encoding: {} })),
      pointer: body.pointer,
    };
  }
  if (formData.length === 0) return undefined;
  const hasFile = formData.some((parameter) => parameter.node['type'] === 'file');
  const mediaType =
    hasFile || consumes.some((type) => type.startsWith('multipart/')) ? 'multipart/form-data' : 'application/x-www-form-urlencoded';
  const properties: JsonObject = {};
  const required: string[] = [];
  const encoding: MediaTypeModel['encoding'] = {};
  for (const { node, pointer } of formData) {
    const name = typeof node['name'] === 'string' ? node['name'] : undefined;
    if (!name) continue;
    setOwn(properties, name, context.schemas.convert(swagger2Schema(node), pointer) as JsonValue);
    if (node['required'] === true) required.push(name);
    // An array without collectionFormat is csv in Swagger 2.0, not the repeated keys of OpenAPI 3's form default.
    if (node['type'] === 'array' || node['collectionFormat'] !== undefined)
      setOwn(encoding, name, collectionStyle(node['collectionFormat'], 'formData'));
  }
  const schema: JsonObject = { type: 'object', properties, ...(required.length > 0 ? { required } : {}) };
  return {
    required: required.length > 0,
    contents: [{ mediaType, kind: bodyKindOf(mediaType), schema, encoding }],
    pointer: formData[0]?.pointer ?? '#',
  };
}

/**
 * Responses of an operation. Only success responses get converted schemas: they describe what a tool returns.
 * @see https://spec.openapis.org/oas/v3.1.0#responses-object
 */
export function buildResponses(
  value: JsonValue | undefined,
  pointer: string,
  produces: string[] | undefined,
  context: BodyContext,
): ResponseModel[] {
  if (!isJsonObject(value)) return [];
  const out: ResponseModel[] = [];
  for (const [status, raw] of Object.entries(value)) {
    if (status.startsWith('x-')) continue;
    const responsePointer = childPointer(pointer, status);
    const resolved = resolveObject(context.root, raw, responsePointer, context.diagnostics);
    if (!resolved) continue;
    const { node } = resolved;
    const success = /^2/.test(status);
    const contents: ResponseModel['contents'] = [];
    if (produces !== undefined) {
      // Swagger 2.0: one schema, offered in every `produces` media type.
      const schema =
        success && node['schema'] !== undefined
          ? context.schemas.convert(node['schema'], childPointer(resolved.pointer, 'schema'))
          : undefined;
      for (const mediaType of produces.length > 0 ? produces : ['application/json']) {
        if (node['schema'] !== undefined) contents.push({ mediaType, ...(schema !== undefined ? { schema } : {}) });
      }
    } else if (isJsonObject(node['content'])) {
      for (const [mediaType, media] of Object.entries(node['content'])) {
        const schemaNode = isJsonObject(media) ? media['schema'] : undefined;
        const schema =
          success && schemaNode !== undefined
            ? context.schemas.convert(schemaNode, childPointer(resolved.pointer, 'content', mediaType, 'schema'))
            : undefined;
        contents.push({ mediaType, ...(schema !== undefined ? { schema } : {}) });
      }
    }
    const description = stringOf(node['description']);
    const headers = isJsonObject(node['headers']) ? Object.keys(node['headers']) : [];
    out.push({ status, ...(description ? { description } : {}), contents, headers });
  }
  return out;
}
