// Checks a call's arguments against the description's full rules for its action before anything is sent. The input
// schema a model sees may be leaner (the generator drops patterns, formats and nested fields to fit a token budget);
// each action's `argumentsSchema` keeps them, and the named schemas they share live once in src/schemas.ts.
// Validators come from Ajv: compiled on an action's first call in Node (compile-arguments.ts, loaded then too), or
// generated with the project where code generation is refused while serving (Cloudflare Workers: the Worker entry
// passes src/argument-validators.js to `useArgumentValidators`).

import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { schemaDefs } from '../schemas.js';
import { routedTools } from '../tools/routed.js';
import { describeBreaches, exampleField, exampleOf, typeWords, type Breach } from './argument-errors.js';
import type { ActionRoute, ArgumentRoute, ToolDefinition } from './types.js';

/** The validator of the action at a position of `actionRoutes()`, if it has rules to check. */
export type ArgumentValidators = (position: number) => ValidateFunction | undefined;

let validators: ArgumentValidators | Promise<ArgumentValidators> | undefined;
let positions: Map<ActionRoute, number> | undefined;

/**
 * Every action's route, tool by tool in the order of src/tools/routed.ts and action by action in each tool's order:
 * a validator's position. The generator numbers src/argument-validators.js the same way.
 */
export function actionRoutes(): ActionRoute[] {
  return routedTools.flatMap((tool) => Object.values(tool.actions));
}

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
 * null are not sent, so they are not checked; body fields are sent as they are, null included.
 */
export async function checkArguments(
  tool: ToolDefinition,
  route: ActionRoute,
  args: Record<string, unknown>,
): Promise<Breach[]> {
  const sent: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  const textual = route.body?.kind === 'form' || route.body?.kind === 'multipart';
  for (const argument of route.arguments) {
    const value = args[argument.arg];
    if (value === undefined || (value === null && argument.in !== 'body' && argument.in !== 'body-whole')) continue;
    sent[argument.arg] = sentAsText(argument, textual)
      ? asDeclaredScalar(value, declaredTypes(tool, route, argument.arg))
      : value;
  }
  const breaches = typeBreaches(tool, route, sent);
  const validate = await validatorFor(route);
  if (validate && !validate(sent))
    breaches.push(...describeBreaches((validate.errors ?? []) as ErrorObject[], sent, schemaDefs));
  return breaches;
}

/** Whether an argument reaches the wire as plain text: not as JSON (a `content` parameter, a JSON part or body). */
function sentAsText(argument: ArgumentRoute, textualBody: boolean): boolean {
  if (argument.in === 'body-whole') return false;
  if (argument.in === 'body') return textualBody && !/json/i.test(argument.contentType ?? '');
  return argument.json !== true;
}

/**
 * A parameter or form field travels as text, so "1765432100.123" and 1765432100.123 send the same bytes: a string
 * that reads as the number or boolean the description declares is checked as that value (what is sent is unchanged).
 * A model that was shown only the argument's name (optional arguments listed in the tool's description) has no way
 * to know which of the two the description chose.
 */
function asDeclaredScalar(value: unknown, types: string[]): unknown {
  if (typeof value !== 'string' || types.length === 0 || types.includes('string')) return value;
  const number = value.trim() === '' ? Number.NaN : Number(value);
  if (Number.isFinite(number) && (types.includes('number') || (types.includes('integer') && Number.isInteger(number))))
    return number;
  if (types.includes('boolean') && (value === 'true' || value === 'false')) return value === 'true';
  return value;
}

/** The types the description's rules (or else the input schema) declare for an argument. */
function declaredTypes(tool: ToolDefinition, route: ActionRoute, name: string): string[] {
  const checked = route.argumentsSchema?.['properties'] as Record<string, { type?: unknown }> | undefined;
  const input = tool.inputSchema['properties'] as Record<string, { type?: unknown }> | undefined;
  const property =
    checked && Object.hasOwn(checked, name)
      ? checked[name]
      : input && Object.hasOwn(input, name)
        ? input[name]
        : undefined;
  return typeof property?.type === 'string'
    ? [property.type]
    : Array.isArray(property?.type)
      ? (property.type as string[])
      : [];
}

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
    const types = declaredTypes(tool, route, name);
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
