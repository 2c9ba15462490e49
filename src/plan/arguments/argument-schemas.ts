import { isJsonObject, setOwn, type JsonObject, type JsonValue } from '../../kernel/json.js';
import type { ApiModel, MediaTypeModel, OperationModel, SchemaModel } from '../../model/api-model.js';
import { objectShape, type ObjectShape } from './schema-views.js';
import type { ActionModel, ArgumentRoute, RouteModel, ToolModel } from '../tool-plan.js';
import { conditionalRequirements, conditionRules } from './conditional-requirements.js';
import { ValidationView } from './validation-view.js';
import { compareStrings } from '../text/words.js';
import { rememberObject } from '../../kernel/object-memo.js';
import { once } from '../../kernel/once.js';

type BodyField = Extract<ArgumentRoute, { in: 'body' }>;

export type ArgumentSchemas = {
  /**
   * The tools, each action with the full schema of its arguments where there is anything to check
   * (`argumentsSchema`, made when first read).
   */
  tools: ToolModel[];
  /** The validation views of every named schema those reference (`#/$defs/<name>`), sorted by name. */
  defs: () => Record<string, SchemaModel>;
};

/**
 * The description's full rules for each action's arguments, keyed by the tool's argument names: a model sees a
 * leaner schema (the budget drops patterns, formats, nested fields), and the generated server checks these before
 * it sends anything. Each argument's schema is read from the model the way build-arguments.ts reads it (a parameter,
 * a field of a flattened body, or the whole body), through the validation view. Named schemas are shared by all
 * actions through `defs`, converted once.
 *
 * Only the generated server reads them: they are made when first read, each action's on its own and `defs` once all
 * actions' are (a view and the names it refers to do not depend on which schema was converted first), so that a
 * plan that is not emitted (`plan`, the choice of surface) never makes them — Microsoft Graph's 11,422 actions took
 * 200-300 ms and a twelfth of the plan's allocation.
 */
export function withArgumentSchemas(tools: ToolModel[], model: ApiModel): ArgumentSchemas {
  const view = new ValidationView(model.schemas);
  const operations = new Map(model.operations.map((operation) => [operation.key, operation]));
  const made: Array<() => unknown> = [];
  const checked = tools.map((tool) => ({
    ...tool,
    actions: tool.actions.map((action): ActionModel => {
      const operation = operations.get(action.operation.key);
      if (!operation) return action;
      const schema = once(() => actionSchema(operation, action.route, inputProperties(tool), model.schemas, view));
      made.push(schema);
      return Object.defineProperty({ ...action }, 'argumentsSchema', { get: schema, enumerable: true, configurable: true });
    }),
  }));
  const defs = once(() => {
    for (const schema of made) schema();
    return sharedDefs(view, model.schemas);
  });
  return { tools: checked, defs };
}

function actionSchema(
  operation: OperationModel,
  route: RouteModel,
  inputProperties: JsonObject,
  schemas: Record<string, SchemaModel>,
  view: ValidationView,
): JsonObject | undefined {
  const media = route.body ? operation.requestBody?.contents.find((content) => content.mediaType === route.body?.mediaType) : undefined;
  const bodyFields = route.arguments.filter((argument): argument is BodyField => argument.in === 'body');
  const shape = media && bodyFields.length > 0 ? objectShape(media.schema, schemas) : undefined;
  const properties: JsonObject = {};
  for (const argument of route.arguments) {
    const schema = argumentSchema(argument, operation, media, shape);
    if (schema === undefined) continue;
    const converted = view.convertArgument(schema);
    if (converted === true || (isJsonObject(converted) && Object.keys(converted).length === 0)) continue;
    if (typeOnlyAsIn(converted, inputProperties[argument.arg])) continue;
    setOwn(properties, argument.arg, converted);
  }
  const rules: JsonObject = {};
  if (Object.keys(properties).length > 0) rules['properties'] = properties;
  if (shape && route.body) Object.assign(rules, bodyRules(bodyFields, route.body.required, media, schemas));
  return Object.keys(rules).length > 0 ? rules : undefined;
}

function inputProperties(tool: ToolModel): JsonObject {
  const properties = tool.inputSchema['properties'];
  return isJsonObject(properties) ? properties : {};
}

/**
 * A rule that only says the type the input schema already gives the argument: left out, as most arguments' rules
 * are (`owner: {type: string}`); the server checks such types against the input schema itself.
 */
function typeOnlyAsIn(converted: SchemaModel, input: JsonValue | undefined): boolean {
  if (!isJsonObject(converted) || !isJsonObject(input) || Object.keys(converted).length !== 1) return false;
  return converted['type'] !== undefined && JSON.stringify(converted['type']) === JSON.stringify(input['type']);
}

/** The schema an argument is checked against; none for files and raw text or binary bodies (any string will do). */
function argumentSchema(
  argument: ArgumentRoute,
  operation: OperationModel,
  media: MediaTypeModel | undefined,
  shape: ObjectShape | undefined,
): SchemaModel | undefined {
  if ('file' in argument && argument.file) return undefined;
  if (argument.in === 'body-whole')
    return media && (media.kind === 'json' || media.kind === 'form' || media.kind === 'multipart') ? media.schema : undefined;
  if (argument.in === 'body') return shape ? fieldSchemas(shape).get(argument.name) : undefined;
  return operation.parameters.find((parameter) => parameter.in === argument.in && parameter.name === argument.name)?.schema;
}

/**
 * A shape's properties by name. Shapes are shared (schema-views.ts), and Microsoft Graph's bodies have hundreds of
 * fields: looking each argument up in the list was quadratic in them.
 */
const fieldSchemas = rememberObject((shape: ObjectShape): ReadonlyMap<string, SchemaModel> => new Map(shape.properties));

/**
 * Rules of a flattened body that no single argument carries: its conditional requirements (an optional body's
 * required fields once any field is sent, `dependentRequired`, `if`/`then`, alternatives of required fields; see
 * conditional-requirements.ts), which the tool description states too.
 */
function bodyRules(
  fields: BodyField[],
  bodyRequired: boolean,
  media: MediaTypeModel | undefined,
  schemas: Record<string, SchemaModel>,
): JsonObject {
  if (!media) return {};
  const conditions = conditionalRequirements(
    media.schema,
    schemas,
    fields.map((field) => ({ name: field.name, arg: field.arg })),
    bodyRequired,
  );
  return conditionRules(
    conditions,
    fields.map((field) => field.arg),
  );
}

/** Every named schema the argument schemas reach, converted once; `allOf` parts lose their closing rule (see the view). */
function sharedDefs(view: ValidationView, schemas: Record<string, SchemaModel>): Record<string, SchemaModel> {
  const converted = new Map<string, SchemaModel>();
  for (;;) {
    const next = [...view.referenced].filter((name) => !converted.has(name));
    if (next.length === 0) break;
    for (const name of next) {
      const schema = Object.hasOwn(schemas, name) ? schemas[name] : undefined;
      converted.set(name, schema === undefined ? true : view.convert(schema));
    }
  }
  const defs: Record<string, SchemaModel> = {};
  for (const name of [...converted.keys()].sort(compareStrings)) {
    let schema = converted.get(name) as SchemaModel;
    if (view.composed.has(name) && isJsonObject(schema)) {
      // A copy: the view may be shared with other places that keep the closing rule.
      const { additionalProperties: _open, ...rest } = schema;
      schema = rest['unevaluatedProperties'] === false ? withoutKey(rest, 'unevaluatedProperties') : rest;
    }
    setOwn(defs, name, schema);
  }
  return defs;
}

function withoutKey(object: JsonObject, key: string): JsonObject {
  const { [key]: _dropped, ...rest } = object;
  return rest;
}
