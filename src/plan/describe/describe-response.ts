import type { OperationModel, SchemaModel } from '../../model/api-model.js';
import { isJsonMediaType } from '../../kernel/media-types.js';
import { rememberObject } from '../../kernel/object-memo.js';
import { PREFERRED_FIELDS } from './key-fields.js';
import { objectShape, type ObjectShape } from '../arguments/schema-views.js';
import { isPagingArgument } from '../arguments/paging-arguments.js';
import type { ArgumentDraft } from '../drafts.js';
import type { PaginationModel } from '../tool-plan.js';

const NEXT_FIELDS =
  /^(next|next_cursor|nextcursor|next_page|nextpage|next_page_token|nextpagetoken|next_token|nexttoken|cursor|has_more|hasmore|continuation_token|next_page_uri|nextpageuri|next_page_url|marker|next_marker|links|_links|paging|pagination|meta)$/i;

export type ResponseSummary = { text: string; pagination?: PaginationModel };

/** The main success response of an operation: `200`, else the first `2XX`. */
export function successSchema(operation: OperationModel): { schema?: SchemaModel; headers: string[]; mediaType?: string } {
  const responses = operation.responses.filter((response) => /^2/.test(response.status)).sort((a, b) => (a.status < b.status ? -1 : 1));
  const response = responses[0];
  if (!response) return { headers: [] };
  const json = response.contents.find((content) => isJsonMediaType(content.mediaType)) ?? response.contents[0];
  return {
    ...(json?.schema !== undefined ? { schema: json.schema } : {}),
    headers: response.headers,
    ...(json ? { mediaType: json.mediaType } : {}),
  };
}

/**
 * What an action returns, in a few words (`a list of Pet (id, name, status)`), and how its results page, from the
 * success response schema, its headers and the action's arguments.
 */
export function describeResponse(operation: OperationModel, args: ArgumentDraft[], defs: Record<string, SchemaModel>): ResponseSummary {
  const { schema, headers, mediaType } = successSchema(operation);
  const pagingArguments = args.filter((arg) => arg.route.in === 'query' && isPagingArgument(arg.key)).map((arg) => arg.key);
  const text = schema === undefined ? (mediaType && !isJsonMediaType(mediaType) ? `${mediaType} content` : '') : shapeText(schema, defs);
  const nextFields = schema === undefined ? [] : nextFieldsOf(schema, defs);
  const nextLinkHeader = headers.some((header) => header.toLowerCase() === 'link');
  const paginated = pagingArguments.length > 0 && (nextFields.length > 0 || nextLinkHeader || isList(schema, defs));
  return {
    text,
    ...(paginated ? { pagination: { arguments: pagingArguments, nextFields, nextLinkHeader } } : {}),
  };
}

function deref(schema: SchemaModel | undefined, defs: Record<string, SchemaModel>): { schema?: SchemaModel; name?: string } {
  let current = schema;
  let name: string | undefined;
  for (let depth = 0; depth < 8 && typeof current === 'object' && typeof current['$ref'] === 'string'; depth++) {
    name = current['$ref'].replace('#/$defs/', '');
    current = defs[name];
  }
  return { ...(current !== undefined ? { schema: current } : {}), ...(name ? { name } : {}) };
}

function isList(schema: SchemaModel | undefined, defs: Record<string, SchemaModel>): boolean {
  const resolved = deref(schema, defs).schema;
  return typeof resolved === 'object' && resolved['type'] === 'array';
}

function shapeText(schema: SchemaModel, defs: Record<string, SchemaModel>): string {
  const { schema: resolved, name } = deref(schema, defs);
  if (typeof resolved !== 'object') return '';
  if (resolved['type'] === 'array') {
    const item = deref(resolved['items'] as SchemaModel | undefined, defs);
    const fields = item.schema === undefined ? [] : keyFields(item.schema, defs);
    return `a list of ${item.name ?? 'items'}${fields.length > 0 ? ` (${fields.join(', ')})` : ''}`;
  }
  const page = pageOf(resolved, defs);
  if (page) return page;
  const scalar = typeof resolved['type'] === 'string' && SCALAR_TYPES.has(resolved['type']) ? resolved['type'] : undefined;
  if (scalar) return name ? `${article(name)} ${name} (${scalar})` : '';
  const fields = keyFields(resolved, defs);
  if (fields.length === 0) return name ? `${article(name)} ${name} object` : '';
  return `${name ? `${article(name)} ${name}` : 'an object'} (${fields.join(', ')})`;
}

/**
 * A page of a list wrapped in an object (`{ data: [PatientAllergy], next, previous }`): said as the list and where it
 * is, `a list of PatientAllergy in data (id, patient, …)`, since "an object (data, next, previous)" tells a model
 * nothing about the items. Only for an object with one list among its fields.
 */
function pageOf(schema: SchemaModel, defs: Record<string, SchemaModel>): string | undefined {
  const shape = objectShape(schema, defs);
  return shape ? pageOfShape(shape, defs) : undefined;
}

// What is said of a shape is worked out once per shape: shapes are shared (schema-views.ts, made from one `defs`
// each), and many operations return the same schemas (Microsoft Graph's entities, of hundreds of fields each).
const pageOfShape = rememberObject((shape: ObjectShape, defs: Record<string, SchemaModel>): string | undefined => {
  const lists = shape.properties.filter(([, property]) => isList(property, defs));
  if (lists.length !== 1) return undefined;
  const [field, property] = lists[0] as [string, SchemaModel];
  const items = deref((deref(property, defs).schema as Record<string, SchemaModel> | undefined)?.['items'], defs);
  // A list of things among a few other fields (paging, counts); a board of marks beside a winner is no page.
  const others = shape.properties.length - 1;
  const fields = items.schema === undefined ? [] : keyFields(items.schema, defs);
  if (fields.length === 0 || others > MAX_PAGE_FIELDS) return undefined;
  return `a list of ${items.name ?? 'items'} in ${field}${fields.length > 0 ? ` (${fields.join(', ')})` : ''}`;
});

const SCALAR_TYPES = new Set(['string', 'integer', 'number', 'boolean']);

/** Fields beside the list a page wrapper may have (next, previous, count, total …). */
const MAX_PAGE_FIELDS = 5;

function article(word: string): string {
  return /^[aeiou]/i.test(word) ? 'an' : 'a';
}

function keyFields(schema: SchemaModel, defs: Record<string, SchemaModel>): string[] {
  const shape = objectShape(schema, defs);
  return shape ? keyFieldsOf(shape) : [];
}

const keyFieldsOf = rememberObject((shape: ObjectShape): string[] => {
  const names = shape.properties.map(([name]) => name);
  const preferred = PREFERRED_FIELDS.filter((field) => names.includes(field));
  const rest = names.filter((name) => !preferred.includes(name)).sort();
  const picked = [...preferred, ...rest].slice(0, 5);
  return names.length > picked.length ? [...picked, '…'] : picked;
});

function nextFieldsOf(schema: SchemaModel, defs: Record<string, SchemaModel>): string[] {
  const shape = objectShape(deref(schema, defs).schema ?? {}, defs);
  return shape ? nextFieldsOfShape(shape) : [];
}

const nextFieldsOfShape = rememberObject((shape: ObjectShape): string[] =>
  shape.properties.map(([name]) => name).filter((name) => NEXT_FIELDS.test(name)),
);
