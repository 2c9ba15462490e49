// Checks a call's arguments against the description's full rules for its action before anything is sent. The input
// schema a model sees may be leaner (the generator drops patterns, formats and nested fields to fit a token budget);
// each action's `argumentsSchema` keeps them, and the named schemas they share live once in src/schemas.ts.
// Validators come from Ajv: compiled on an action's first call in Node (compile-arguments.ts, loaded then too), or
// generated with the project where code generation is refused while serving (Cloudflare Workers: the Worker entry
// passes src/argument-validators.js to `useArgumentValidators`).

import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { schemaDefs } from '../../schemas.js';
import type { ActionRoute, ArgumentRoute, ToolDefinition } from '../core/types.js';
import { actionRoutes, type ArgumentValidators } from './action-routes.js';
import { describeBreaches, exampleField, exampleOf, typeWords, type Breach } from './argument-errors.js';
import { asDeclared, declaredOf, type Declared, type ValueForm } from './declared-values.js';

let validators: ArgumentValidators | Promise<ArgumentValidators> | undefined;
let positions: Map<ActionRoute, number> | undefined;

/** Validators made elsewhere (precompiled); without this call they are compiled on demand. */
export function useArgumentValidators(provider: ArgumentValidators): void {
  validators = provider;
}

async function validatorFor(route: ActionRoute): Promise<ValidateFunction | undefined> {
  if (!route.argumentsSchema) return undefined;
  positions ??= new Map(actionRoutes().map((entry, position) => [entry, position]));
  const position = positions.get(route);
  if (position === undefined) return undefined;
  validators ??= import('./compile-arguments.js').then(({ compileOnDemand }) => (validators = compileOnDemand()));
  return (await validators)(position);
}

/**
 * The breaches of the description's rules in the arguments an action sends, or an empty list. Parameters left
 * null are not sent, so they are not checked; body fields are sent as they are, null included. Values are checked
 * as the declared values they stand for (declared-values.ts).
 */
export async function checkArguments(
  tool: ToolDefinition,
  route: ActionRoute,
  args: Record<string, unknown>,
): Promise<Breach[]> {
  const sent: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const argument of route.arguments) {
    const value = args[argument.arg];
    if (value === undefined || (value === null && argument.in !== 'body' && argument.in !== 'body-whole')) continue;
    sent[argument.arg] = checkedValue(route, argument, value, tool.inputSchema);
  }
  const breaches = typeBreaches(tool, route, sent);
  const validate = await validatorFor(route);
  if (validate && !validate(sent))
    breaches.push(...describeBreaches((validate.errors ?? []) as ErrorObject[], sent, schemaDefs));
  return breaches;
}

/**
 * The arguments as the request sends them: a JSON value in the plain scalar type its action declares where the
 * conversion loses nothing ("42" → 42 for an integer field); text as given, since its bytes are the declared value's.
 */
export function sentArguments(
  tool: ToolDefinition,
  route: ActionRoute,
  args: Record<string, unknown>,
): Record<string, unknown> {
  const sent: Record<string, unknown> = Object.assign(Object.create(null) as Record<string, unknown>, args);
  for (const argument of route.arguments) {
    const value = args[argument.arg];
    if (value === undefined || value === null || formOf(route, argument) !== 'json') continue;
    sent[argument.arg] = asDeclared(value, declaredFor(route, argument.arg, tool.inputSchema), 'json');
  }
  return sent;
}

/**
 * A tool's input as its action's rules see it (for the check against the tool's merged input schema): every
 * argument of the action that the call names as the declared value it stands for. `schema` gives the types the
 * rules leave to the input schema: the tool's own, or on the search surface the action's (its routed tool's input
 * schema is empty there). Input that names no action of the tool is returned as it is.
 */
export function checkedInput(
  tool: ToolDefinition,
  input: Record<string, unknown>,
  schema: InputSchema = tool.inputSchema,
): Record<string, unknown> {
  const names = Object.keys(tool.actions);
  const action = names.length > 1 ? String(input['action'] ?? '') : (names[0] ?? '');
  const route = Object.hasOwn(tool.actions, action) ? tool.actions[action] : undefined;
  if (!route) return input;
  const checked: Record<string, unknown> = Object.assign(Object.create(null) as Record<string, unknown>, input);
  for (const argument of route.arguments) {
    const value = input[argument.arg];
    if (value !== undefined && value !== null) checked[argument.arg] = checkedValue(route, argument, value, schema);
  }
  return checked;
}

function checkedValue(route: ActionRoute, argument: ArgumentRoute, value: unknown, schema: InputSchema): unknown {
  const form = formOf(route, argument);
  return form ? asDeclared(value, declaredFor(route, argument.arg, schema), form) : value;
}

/**
 * How an argument reaches the API: as text (a parameter, a form field, a multipart part), as JSON (a JSON body's
 * field, a part or parameter sent as JSON), or undefined for a whole body, whose value is never converted.
 */
function formOf(route: ActionRoute, argument: ArgumentRoute): ValueForm | undefined {
  if (argument.in === 'body-whole') return undefined;
  if (argument.in === 'body') {
    const textual = route.body?.kind === 'form' || route.body?.kind === 'multipart';
    return textual && !/json/i.test(argument.contentType ?? '') ? 'text' : 'json';
  }
  return argument.json === true ? 'json' : 'text';
}

/** The declaration of an argument in its action's rules, or else in the input schema (which then gives its type). */
function declaredFor(route: ActionRoute, name: string, schema: InputSchema): Declared | undefined {
  const checked = route.argumentsSchema?.['properties'] as Record<string, unknown> | undefined;
  if (checked && Object.hasOwn(checked, name)) return declaredOf(checked[name], schemaDefs);
  const input = schema['properties'] as Record<string, unknown> | undefined;
  const defs = schema['$defs'];
  return input && Object.hasOwn(input, name)
    ? declaredOf(input[name], defs !== null && typeof defs === 'object' ? (defs as Record<string, unknown>) : {})
    : undefined;
}

type InputSchema = { [keyword: string]: unknown };

/**
 * Arguments whose only rule is their type are left out of `argumentsSchema` (the input schema gives the same type);
 * their types are checked here, so that a wrong one gets the same answer as any other breach.
 */
function typeBreaches(tool: ToolDefinition, route: ActionRoute, sent: Record<string, unknown>): Breach[] {
  const input = tool.inputSchema['properties'] as Record<string, unknown> | undefined;
  const checked = route.argumentsSchema?.['properties'] as Record<string, unknown> | undefined;
  const breaches: Breach[] = [];
  for (const [name, value] of Object.entries(sent)) {
    if (checked && Object.hasOwn(checked, name)) continue;
    const types = [...(declaredFor(route, name, tool.inputSchema)?.types ?? [])];
    if (types.length === 0 || types.some((type) => hasType(value, type))) continue;
    const property = input && Object.hasOwn(input, name) ? input[name] : undefined;
    breaches.push({ path: name, rule: `must be ${typeWords(types)}`, ...exampleField(exampleOf(property, {})) });
  }
  return breaches;
}

function hasType(value: unknown, type: string): boolean {
  switch (type) {
    case 'integer':
      return Number.isInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'null':
      return value === null;
    case 'array':
      return Array.isArray(value);
    case 'object':
      return value !== null && typeof value === 'object' && !Array.isArray(value);
    default:
      return typeof value === type;
  }
}
