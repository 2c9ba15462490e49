import type { Diagnostics } from '../diagnostics/diagnostic.js';
import { childPointer } from '../diagnostics/json-pointer.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../kernel/json.js';
import type { ParameterLocation, ParameterModel, ParameterStyle, SchemaModel } from './api-model.js';
import { scalarExamples, type SchemaConverter } from './build-schema.js';
import { isHttpToken } from '../kernel/http-token.js';
import { defaultStyle } from '../kernel/parameter-style.js';
import * as jsonSchema from '../kernel/schema-keywords.js';
import { stringOf } from './resolve-ref.js';

const LOCATIONS: readonly ParameterLocation[] = ['path', 'query', 'header', 'cookie'];
const STYLES: readonly ParameterStyle[] = ['simple', 'label', 'matrix', 'form', 'spaceDelimited', 'pipeDelimited', 'deepObject'];

export type ParameterContext = { schemas: SchemaConverter; diagnostics: Diagnostics };

/** Keywords a Swagger 2.0 non-body parameter carries directly instead of in a `schema`. */
const SWAGGER2_SCHEMA_KEYWORDS = [
  'type',
  'format',
  'items',
  'enum',
  'default',
  ...jsonSchema.NUMBER_RANGE,
  ...jsonSchema.EXCLUSIVE_RANGE,
  ...jsonSchema.STRING_LENGTH,
  'pattern',
  ...jsonSchema.ARRAY_SIZE,
  'multipleOf',
  'x-nullable',
] as const;

/**
 * An OAS 3.x Parameter Object → ParameterModel.
 * @see https://spec.openapis.org/oas/v3.1.0#parameter-object
 */
export function buildParameter3(node: JsonObject, pointer: string, context: ParameterContext): ParameterModel | undefined {
  const named = sendableParameter(node, pointer, context, {
    name: stringOf(node['name']) ?? (typeof node['name'] === 'string' ? node['name'] : undefined),
    cookies: true,
    hint: 'Use path, query, header or cookie.',
  });
  if (!named) return undefined;
  const { name, location } = named;
  let schemaNode: JsonValue | undefined = node['schema'];
  let schemaPointer = childPointer(pointer, 'schema');
  let contentType: string | undefined;
  const content = node['content'];
  if (schemaNode === undefined && isJsonObject(content)) {
    const [mediaType, media] = Object.entries(content)[0] ?? [];
    if (mediaType && isJsonObject(media)) {
      contentType = mediaType;
      schemaNode = media['schema'];
      schemaPointer = childPointer(pointer, 'content', mediaType, 'schema');
    }
  }
  const style = STYLES.includes(node['style'] as ParameterStyle) ? (node['style'] as ParameterStyle) : defaultStyle(location);
  const explode = typeof node['explode'] === 'boolean' ? node['explode'] : style === 'form';
  return {
    name,
    in: location,
    required: location === 'path' ? true : node['required'] === true,
    ...describe(node),
    deprecated: node['deprecated'] === true,
    schema: withParameterExamples(schemaNode === undefined ? { type: 'string' } : context.schemas.convert(schemaNode, schemaPointer), node),
    style,
    explode,
    allowReserved: node['allowReserved'] === true,
    ...(contentType ? { contentType } : {}),
    ...mcpHeaderOf(node, pointer, context.diagnostics),
    pointer,
  };
}

/**
 * A Swagger 2.0 path/query/header parameter → ParameterModel (body and formData are request bodies).
 * @see https://swagger.io/specification/v2/#parameter-object
 */
export function buildParameter2(node: JsonObject, pointer: string, context: ParameterContext): ParameterModel | undefined {
  const named = sendableParameter(node, pointer, context, {
    name: typeof node['name'] === 'string' ? node['name'] : undefined,
    cookies: false,
    hint: 'Swagger 2.0 parameters are in path, query, header, body or formData.',
  });
  if (!named) return undefined;
  const { name, location } = named;
  const { style, explode } = collectionStyle(node['collectionFormat'], location);
  return {
    name,
    in: location,
    required: location === 'path' ? true : node['required'] === true,
    ...describe(node),
    deprecated: node['deprecated'] === true || node['x-deprecated'] === true,
    schema: context.schemas.convert(swagger2Schema(node), pointer),
    style,
    explode,
    allowReserved: false,
    ...mcpHeaderOf(node, pointer, context.diagnostics),
    pointer,
  };
}

/** The schema a Swagger 2.0 non-body parameter describes with its own keywords. */
export function swagger2Schema(node: JsonObject): JsonObject {
  const schema: JsonObject = {};
  for (const keyword of SWAGGER2_SCHEMA_KEYWORDS) {
    const value = node[keyword];
    if (value !== undefined) schema[keyword] = value;
  }
  if (schema['type'] === undefined) schema['type'] = 'string';
  if (typeof node['description'] === 'string') schema['description'] = node['description'];
  return schema;
}

/** Swagger 2.0 `collectionFormat` → OAS 3 style and explode. */
export function collectionStyle(
  format: JsonValue | undefined,
  location: ParameterLocation | 'formData',
): { style: ParameterStyle; explode: boolean } {
  const formLike = location === 'query' || location === 'formData';
  switch (format) {
    case 'multi':
      return { style: 'form', explode: true };
    case 'ssv':
      return { style: 'spaceDelimited', explode: false };
    case 'pipes':
      return { style: 'pipeDelimited', explode: false };
    case 'tsv':
      return { style: 'tabDelimited', explode: false };
    default:
      return { style: formLike ? 'form' : 'simple', explode: false };
  }
}

/** Header and cookie names must be tokens; a parameter that cannot be sent is skipped rather than failing every call. */
function sendableName(name: string, location: ParameterLocation, pointer: string, diagnostics: Diagnostics): boolean {
  if ((location !== 'header' && location !== 'cookie') || isHttpToken(name)) return true;
  diagnostics.warn(
    'OTM_PARAMETER_LOCATION',
    `The ${location} parameter ${JSON.stringify(name)} cannot be sent: it is not a valid ${location} name; it was skipped.`,
    {
      pointer: childPointer(pointer, 'name'),
      hint: "Header and cookie names are RFC 9110 tokens: letters, digits and !#$%&'*+-.^_`|~, no spaces.",
    },
  );
  return false;
}

function isLocation(value: JsonValue | undefined): value is ParameterLocation {
  return typeof value === 'string' && (LOCATIONS as readonly string[]).includes(value);
}

/**
 * A parameter's own `example` (or the values of its `examples` map) joins its schema's examples when the schema has
 * none: the generated server quotes them as valid values.
 */
function withParameterExamples(schema: SchemaModel, node: JsonObject): SchemaModel {
  if (typeof schema === 'boolean' || schema['examples'] !== undefined) return schema;
  const named = isJsonObject(node['examples'])
    ? Object.values(node['examples']).flatMap((entry) => (isJsonObject(entry) && entry['value'] !== undefined ? [entry['value']] : []))
    : [];
  const examples = scalarExamples({ examples: named, ...(node['example'] !== undefined ? { example: node['example'] } : {}) });
  return examples.length > 0 ? { ...schema, examples } : schema;
}

function describe(node: JsonObject): { description?: string } {
  const description = stringOf(node['description']);
  return description ? { description } : {};
}

function mcpHeaderOf(node: JsonObject, pointer: string, diagnostics: Diagnostics): { mcpHeader?: string | false } {
  const value = node['x-mcp-header'];
  if (value === undefined) return {};
  if (value === false || (typeof value === 'string' && value !== '')) return { mcpHeader: value };
  diagnostics.warn('OTM_EXTENSION_INVALID', 'x-mcp-header must be a header name or false; the marking was ignored.', {
    pointer: childPointer(pointer, 'x-mcp-header'),
  });
  return {};
}

/**
 * A parameter's name and location, when it has both and can be sent there (Swagger 2.0 has no cookie parameters);
 * otherwise a warning at the parameter and undefined (the parameter is skipped).
 */
function sendableParameter(
  node: JsonObject,
  pointer: string,
  context: ParameterContext,
  rules: { name: string | undefined; cookies: boolean; hint: string },
): { name: string; location: ParameterLocation } | undefined {
  const { name } = rules;
  const location = node['in'];
  if (name === undefined) {
    context.diagnostics.warn('OTM_INVALID_OBJECT', 'A parameter has no name; it was skipped.', { pointer });
    return undefined;
  }
  if (!isLocation(location) || (location === 'cookie' && !rules.cookies)) {
    context.diagnostics.warn(
      'OTM_PARAMETER_LOCATION',
      location === undefined
        ? `Parameter "${name}" has no location (\`in\`); it was skipped.`
        : `Parameter "${name}" is in ${JSON.stringify(location)}, which cannot be sent; it was skipped.`,
      { pointer: childPointer(pointer, 'in'), hint: rules.hint },
    );
    return undefined;
  }
  return sendableName(name, location, pointer, context.diagnostics) ? { name, location } : undefined;
}
