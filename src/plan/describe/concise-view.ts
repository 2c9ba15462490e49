import { isJsonObject, type JsonObject } from '../../kernel/json.js';
import type { OperationModel, SchemaModel } from '../../model/api-model.js';
import { isJsonMediaType } from '../../kernel/media-types.js';
import { rememberObject } from '../../kernel/object-memo.js';
import { successSchema } from './describe-response.js';
import { objectShape, type ObjectShape } from '../arguments/schema-views.js';
import { PREFERRED_FIELDS } from './key-fields.js';
import type { ConciseModel } from '../tool-plan.js';

/** Names that identify (`ContactID`, `account_sid`) or summarise (`InvoiceNumber`, `FolderName`) in other casings. */
const IDENTIFYING = /(^|_)(id|sid|uuid|key)$|[a-z0-9](Id|ID|Sid|SID|Uuid|UUID|Key)$/;
const SUMMARISING = /(^|_)(name|title|number|status|state|type)$|[a-z0-9](Name|Title|Number|Status|State|Type)$/;
const MAX_FIELDS = 8;
/** A concise view is offered only where it drops this many fields per item or more: less is not worth a choice. */
const MIN_DROPPED = 3;

/**
 * How an action's list results shrink in the concise view: where the lists are (the body itself, or its top-level
 * fields that hold arrays of objects, like `data` or `Invoices`) and which fields of each item stay. Undefined when
 * the success response is not a list of objects, or when its items have few fields to drop.
 */
export function conciseView(operation: OperationModel, schemas: Record<string, SchemaModel>): ConciseModel | undefined {
  const { schema, mediaType } = successSchema(operation);
  if (schema === undefined || (mediaType !== undefined && !isJsonMediaType(mediaType))) return undefined;
  const root = resolve(schema, schemas);
  const lists: ConciseModel['lists'] = [];
  const itemsOf = (array: SchemaModel | undefined) => {
    const resolved = array === undefined ? undefined : resolve(array, schemas);
    return isJsonObject(resolved) && resolved['type'] === 'array' ? (resolved['items'] as SchemaModel | undefined) : undefined;
  };
  const rootItems = itemsOf(root);
  if (rootItems !== undefined) {
    const keep = keptFields(rootItems, schemas);
    if (keep) lists.push({ keep });
  } else {
    for (const [field, property] of objectShape(root, schemas)?.properties ?? []) {
      const items = itemsOf(property);
      const keep = items === undefined ? undefined : keptFields(items, schemas);
      if (keep) lists.push({ field, keep });
    }
  }
  return lists.length > 0 ? { lists } : undefined;
}

function keptFields(items: SchemaModel, schemas: Record<string, SchemaModel>): string[] | undefined {
  const shape = objectShape(items, schemas);
  return shape ? keptFieldsOfShape(shape) : undefined;
}

// Once per shape: shapes are shared (schema-views.ts), and the read operations of a large API list the same few
// hundred entities (Microsoft Graph's of hundreds of fields each).
const keptFieldsOfShape = rememberObject((shape: ObjectShape) => keptFieldsOf(shape.properties.map(([name]) => name)));

function keptFieldsOf(names: string[]): string[] | undefined {
  if (names.length === 0) return undefined;
  const preferred = PREFERRED_FIELDS.filter((name) => names.includes(name));
  const identifying = names.filter((name) => !preferred.includes(name) && IDENTIFYING.test(name));
  const summarising = names.filter((name) => !preferred.includes(name) && !identifying.includes(name) && SUMMARISING.test(name));
  const keep = [...preferred, ...identifying, ...summarising].slice(0, MAX_FIELDS);
  return keep.length > 0 && names.length - keep.length >= MIN_DROPPED ? keep : undefined;
}

function resolve(schema: SchemaModel, schemas: Record<string, SchemaModel>): SchemaModel {
  let current = schema;
  for (let hops = 0; hops < 8 && isJsonObject(current) && typeof current['$ref'] === 'string'; hops++) {
    current = schemas[String(current['$ref']).replace('#/$defs/', '')] ?? {};
  }
  return current;
}

export const RESPONSE_FORMAT = 'response_format';

/**
 * Adds the optional `response_format` argument to a read tool whose actions (some of them) return lists of objects.
 * Returns the schema unchanged, and offers nothing, when the API already has an argument of that name.
 */
export function withResponseFormat(
  schema: JsonObject,
  conciseActions: string[],
  allActions: number,
  detail = 0,
): { schema: JsonObject; offered: boolean } {
  const properties = isJsonObject(schema['properties'] ?? null) ? (schema['properties'] as JsonObject) : {};
  // At the collapsing levels (5 and up) the planner is fighting for every token of tools/list: nothing is added.
  if (conciseActions.length === 0 || detail >= 5 || Object.hasOwn(properties, RESPONSE_FORMAT)) return { schema, offered: false };
  const scope = conciseActions.length < allActions ? ` For ${conciseActions.join(', ')}.` : '';
  // The argument costs tokens in tools/list on every read tool that offers it; the lean detail levels the planner
  // falls back to under a tight budget get a shorter description, level 4 none (the enum says enough).
  const description =
    detail <= 1
      ? `concise (default): each listed item keeps only the fields that identify and summarise it (id, name, status …); detailed: every field.${scope}`
      : detail <= 3
        ? `concise (default): listed items keep identifying fields only; detailed: all.${scope}`
        : '';
  const property: JsonObject = {
    type: 'string',
    ...(description ? { description } : {}),
    enum: ['concise', 'detailed'],
    default: 'concise',
  };
  return { schema: { ...schema, properties: { ...properties, [RESPONSE_FORMAT]: property } }, offered: true };
}
