// Runs an action of the search surface: checks that the call tool's safety class is the action's, validates the
// arguments against the action's own schema, then calls it exactly as its routed tool would (same request building,
// credentials, headers, hooks and errors).

import type {
  CallToolResult,
  InputRequiredResult,
  JsonSchemaType,
  JsonSchemaValidator,
} from '@modelcontextprotocol/server';
import { catalog } from '../search/catalog.js';
import { actionOf, findActions, inputSchemaOf } from './action-search.js';
import { callTool } from './call-tool.js';
import { checkedInput } from './check-arguments.js';
import { offeredPerUser } from './per-user-tools.js';
import { errorText } from './results.js';
import type { CatalogEntry, Intent, SurfaceDefinition } from './search-types.js';
import type { Settings } from './settings.js';
import type { ConfirmCall } from './types.js';
import { OwnPropertiesValidator, withoutFormats, withoutPrototypes } from './validate-input.js';

const validator = new OwnPropertiesValidator();
/** Compiled on an action's first call: compiling every action's schema at start would slow every start. */
const validators = new Map<string, JsonSchemaValidator<Record<string, unknown>>>();

const WHAT: Record<Intent, string> = {
  read: 'only reads',
  write: 'creates or changes data',
  delete: 'deletes',
};

export async function callAction(
  intent: Intent,
  args: Record<string, unknown>,
  names: SurfaceDefinition['names'],
  settings: Settings,
  signal?: AbortSignal,
  confirm?: ConfirmCall,
): Promise<CallToolResult | InputRequiredResult> {
  const id = String(args['action'] ?? '');
  const entry = actionOf(id);
  const perUser = Boolean(settings.upstreamAuth);
  if (!entry || (perUser && !offeredPerUser(entry.tool, entry.action)))
    return errorText(unknownAction(id, names, perUser));
  if (entry.intent !== intent) {
    const request = `${entry.method.toUpperCase()} ${entry.path}`;
    return errorText(
      `${id} ${WHAT[entry.intent]} (${request}), so ${names[intent]} does not run it: call ${names[entry.intent]} with the same action and arguments. Nothing was sent.`,
    );
  }
  const given = (args['arguments'] ?? {}) as Record<string, unknown>;
  const schema = inputSchemaOf(id, entry);
  const taken = Object.keys(schema.properties ?? {});
  const foreign = Object.keys(given).filter((name) => !taken.includes(name));
  if (foreign.length > 0 && schema['additionalProperties'] === false)
    return errorText(
      `${id} does not take ${foreign.map((name) => JSON.stringify(name)).join(', ')}; it takes ${taken.map((name) => JSON.stringify(name)).join(', ') || 'no arguments'}. Remove the others and call again; nothing was sent.`,
    );
  const input: Record<string, unknown> = Object.keys(entry.tool.actions).length > 1 ? { action: entry.action } : {};
  Object.assign(input, given);
  // Checked as the action's rules see the values (a value that sends the declared value's bytes passes); the call
  // goes with the values as given.
  const values = checkedInput(entry.tool, withoutPrototypes(input) as Record<string, unknown>, schema);
  const checked = validatorOf(id, entry)(withoutAction(values));
  if (!checked.valid)
    return errorText(
      `The arguments do not match the inputSchema of ${id}: ${checked.errorMessage}. Correct them and call again; nothing was sent.`,
    );
  // A destructive action is confirmed as on the static surface, under its routed tool's name.
  const confirmation = await confirm?.(entry.tool, input);
  if (confirmation) return confirmation;
  return callTool(entry.tool, input, settings, signal);
}

/** The arguments of a routed tool's input, without the action that selects its route. */
function withoutAction(input: Record<string, unknown>): Record<string, unknown> {
  const { action: _action, ...args } = input;
  return args;
}

/** Compiles every action's validator now (Cloudflare Workers allow generating code only while the script starts). */
export function compileActionValidators(): void {
  for (const [id, entry] of Object.entries(catalog)) validatorOf(id, entry);
}

function validatorOf(id: string, entry: CatalogEntry): JsonSchemaValidator<Record<string, unknown>> {
  let check = validators.get(id);
  if (!check) {
    // Formats are left to the argument checks that callTool runs, as on the static surface.
    check = validator.getValidator<Record<string, unknown>>(withoutFormats(inputSchemaOf(id, entry)) as JsonSchemaType);
    validators.set(id, check);
  }
  return check;
}

/** Names the actions a search for the unknown id finds, so the next call can use one of them. */
function unknownAction(id: string, names: SurfaceDefinition['names'], perUser: boolean): string {
  const close = id ? findActions(id, 3, perUser).map((found) => found.id) : [];
  const suggestion = close.length > 0 ? ` Close matches: ${close.join(', ')}.` : '';
  return `There is no action ${JSON.stringify(id)}.${suggestion} Find the id with ${names.search} and call again with it.`;
}
