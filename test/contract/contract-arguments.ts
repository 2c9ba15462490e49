import { Diagnostics } from '../../src/diagnostics/diagnostic.js';
import { sampleValue } from '../../src/emit/sample-values.js';
import type { JsonObject, JsonValue } from '../../src/kernel/json.js';
import type { ApiModel, SchemaModel } from '../../src/model/api-model.js';
import { buildArguments } from '../../src/plan/arguments/build-arguments.js';
import { type ActionDraft } from '../../src/plan/drafts.js';
import { inputView } from '../../src/plan/arguments/schema-views.js';
import type { ToolPlan } from '../../src/plan/tool-plan.js';

export type Pass = 'required' | 'optional';

/** One tool call of the contract run. */
export type ContractCall = {
  tool: string;
  action: string;
  /** `METHOD path-key` of the operation, as the description writes it. */
  operation: string;
  /** JSON pointer of the operation in the description. */
  pointer: string;
  pass: Pass;
  arguments: Record<string, JsonValue>;
  /** Arguments left out because no value satisfies their schema (a defect of the description). */
  unsatisfiable: string[];
};

/** A small file every file argument carries: base64 in a data: URL, the form a model is told to use. */
const FILE_SAMPLE = `data:text/plain;base64,${Buffer.from('hello from the contract run').toString('base64')}`;

/**
 * The calls that exercise every action: first with the arguments the action requires, then (when it has optional
 * ones) with every argument. Values come from each argument's full schema, not from the tool's input schema, which
 * the planner may have trimmed to fit the token budget (a trimmed nested object would sample as `{}` and be rejected
 * for missing fields the model is told about in prose). Trimming only loosens a schema, so these values are valid
 * against the input schema too, and the generated server checks that before sending anything.
 */
export function contractCalls(model: ApiModel, plan: ToolPlan): ContractCall[] {
  const defs: Record<string, SchemaModel> = {};
  for (const [name, schema] of Object.entries(model.schemas))
    Object.defineProperty(defs, name, { value: inputView(schema), enumerable: true });
  const operations = new Map(model.operations.map((operation) => [operation.key, operation]));
  const calls: ContractCall[] = [];
  for (const tool of plan.tools) {
    for (const action of tool.actions) {
      const operation = operations.get(action.operation.key);
      if (!operation) throw new Error(`the plan names ${action.operation.key}, which the model lacks`);
      const draft = buildArguments(operation, defs, new Diagnostics());
      const schemas = new Map(draft.arguments.map((argument) => [argument.key, argument.schema]));
      const files = new Set(
        action.route.arguments.filter((argument) => 'file' in argument && argument.file).map((argument) => argument.arg),
      );
      const build = (names: string[]): { arguments: Record<string, JsonValue>; unsatisfiable: string[] } => {
        const args: Record<string, JsonValue> = {};
        const unsatisfiable: string[] = [];
        if (tool.actions.length > 1) args['action'] = action.name;
        for (const name of names) {
          const value = files.has(name) ? FILE_SAMPLE : sampleValue(schemas.get(name) as JsonValue | undefined, defs as JsonObject);
          if (value !== undefined) Object.defineProperty(args, name, { value, enumerable: true, writable: true, configurable: true });
          else unsatisfiable.push(name);
        }
        return { arguments: args, unsatisfiable };
      };
      const base = { tool: tool.name, action: action.name, operation: operation.key, pointer: operation.pointer };
      calls.push({ ...base, pass: 'required', ...build([...action.required, ...alternativeRequired(draft, defs)]) });
      const all = action.route.arguments.map((argument) => argument.arg);
      if (all.length > action.required.length) calls.push({ ...base, pass: 'optional', ...build(all) });
    }
  }
  return calls;
}

/**
 * Body fields that one of several alternatives requires (`anyOf: [{required: [file_ids]}, {required: [files]}]`):
 * the planner flattens such a body, and no single field is required, so the first alternative's fields are added
 * to the required pass (a model learns the rule from the API's answer, as the tool cannot state it at its root).
 */
function alternativeRequired(draft: ActionDraft, defs: Record<string, SchemaModel>): string[] {
  let schema: SchemaModel | undefined = draft.body?.media.schema;
  for (let hops = 0; hops < 8 && typeof schema === 'object' && typeof schema['$ref'] === 'string'; hops++)
    schema = defs[schema['$ref'].replace('#/$defs/', '')];
  if (typeof schema !== 'object') return [];
  const variants = schema['anyOf'] ?? schema['oneOf'];
  const first = Array.isArray(variants) ? variants[0] : undefined;
  const names =
    first !== null && typeof first === 'object' && !Array.isArray(first) && Array.isArray(first['required']) ? first['required'] : [];
  return draft.arguments
    .filter((argument) => argument.route.in === 'body' && names.includes(argument.route.name))
    .map((argument) => argument.key);
}
