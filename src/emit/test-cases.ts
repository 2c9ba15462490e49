import type { JsonObject, JsonValue } from '../load/openapi-document.js';
import type { CredentialModel, ToolModel, ToolPlan } from '../plan/tool-plan.js';
import { sampleValue } from './sample-values.js';

export type ActionCase = { tool: string; action: string; arguments: Record<string, JsonValue>; method: string; path: string };
export type CredentialCase = {
  tool: string;
  action: string;
  arguments: Record<string, JsonValue>;
  env: Record<string, string>;
  in: string;
  name: string;
  expect: string;
};
/** A call with x-mcp-header properties: the `Mcp-Param-*` headers a conforming client sends for its arguments. */
export type HeaderCase = { tool: string; arguments: Record<string, JsonValue>; headers: Record<string, string> };
export type TestCases = { envPrefix: string; actions: ActionCase[]; credentials: CredentialCase[]; headers: HeaderCase[] };

/** Arguments for an action: the action selector and a valid sample for every argument the action needs. */
export function sampleArguments(
  tool: ToolModel,
  actionName: string,
  extra: 'required' | 'all' = 'required',
): Record<string, JsonValue> | undefined {
  const action = tool.actions.find((candidate) => candidate.name === actionName);
  if (!action) return undefined;
  const properties = (tool.inputSchema['properties'] ?? {}) as JsonObject;
  const defs = (tool.inputSchema['$defs'] ?? {}) as JsonObject;
  const args: Record<string, JsonValue> = {};
  if (tool.actions.length > 1) args['action'] = actionName;
  const names = extra === 'all' ? action.route.arguments.map((argument) => argument.arg) : action.required;
  for (const name of names) {
    const value = sampleValue(properties[name], defs);
    if (value === undefined) {
      if (action.required.includes(name)) return undefined;
      continue;
    }
    Object.defineProperty(args, name, { value, enumerable: true, writable: true, configurable: true });
  }
  return args;
}

/** The data the generated test suite runs on: one case per action, one per credential the routes use. */
export function buildTestCases(plan: ToolPlan): TestCases {
  const actions: ActionCase[] = [];
  for (const tool of plan.tools) {
    for (const action of tool.actions) {
      const args = sampleArguments(tool, action.name);
      if (args)
        actions.push({
          tool: tool.name,
          action: action.name,
          arguments: args,
          method: action.route.method.toUpperCase(),
          path: action.route.path,
        });
    }
  }
  const env: Record<string, string> = {};
  for (const credential of plan.api.credentials) Object.assign(env, dummyEnv(credential));
  const credentials: CredentialCase[] = [];
  for (const credential of plan.api.credentials) {
    const found = findAction(plan, credential.scheme);
    if (!found) continue;
    const placement = expectedPlacement(credential, env);
    if (placement) credentials.push({ ...found, env, ...placement });
  }
  const header = headerCase(plan);
  return { envPrefix: plan.api.envPrefix, actions, credentials, headers: header ? [header] : [] };
}

/** The first action that takes a marked property, with a sample value for it and the headers that go with it. */
function headerCase(plan: ToolPlan): HeaderCase | undefined {
  for (const tool of plan.tools) {
    const properties = (tool.inputSchema['properties'] ?? {}) as JsonObject;
    const defs = (tool.inputSchema['$defs'] ?? {}) as JsonObject;
    for (const decision of tool.headers.marked) {
      for (const action of tool.actions) {
        if (!action.route.arguments.some((argument) => argument.arg === decision.property)) continue;
        const args = sampleArguments(tool, action.name);
        const value = args?.[decision.property] ?? sampleValue(properties[decision.property], defs);
        if (!args || value === undefined) continue;
        const withValue = { ...args, [decision.property]: value };
        const headers: Record<string, string> = {};
        for (const marked of tool.headers.marked) {
          const argument = withValue[marked.property];
          if (argument !== undefined && argument !== null && marked.header) headers[`Mcp-Param-${marked.header}`] = headerValue(argument);
        }
        return { tool: tool.name, arguments: withValue, headers };
      }
    }
  }
  return undefined;
}

/**
 * SEP-2243 client encoding: integers in decimal, booleans as true/false, strings as they are when they are plain
 * printable ASCII without surrounding space (and do not look like the sentinel), else `=?base64?<UTF-8 Base64>?=`.
 */
export function headerValue(value: JsonValue): string {
  if (typeof value !== 'string') return String(value);
  const plain = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/.test(value) && !(value.startsWith('=?base64?') && value.endsWith('?='));
  return plain ? value : `=?base64?${Buffer.from(value, 'utf8').toString('base64')}?=`;
}

/**
 * An action that applies this scheme when every credential is configured: the scheme is in its first security
 * alternative, and no other scheme there writes the same place (two bearer schemes would overwrite each other).
 */
function findAction(plan: ToolPlan, scheme: string): { tool: string; action: string; arguments: Record<string, JsonValue> } | undefined {
  const placeOf = (name: string) => {
    const credential = plan.api.credentials.find((entry) => entry.scheme === name);
    return credential?.kind === 'apiKey' ? `${credential.in}:${credential.name?.toLowerCase()}` : 'header:authorization';
  };
  for (const tool of plan.tools) {
    for (const action of tool.actions) {
      const first = action.route.security[0];
      if (!first || !first.some((entry) => entry.scheme === scheme)) continue;
      if (first.some((entry) => entry.scheme !== scheme && placeOf(entry.scheme) === placeOf(scheme))) continue;
      const args = sampleArguments(tool, action.name);
      if (args) return { tool: tool.name, action: action.name, arguments: args };
    }
  }
  return undefined;
}

function dummyEnv(credential: CredentialModel): Record<string, string> {
  const out: Record<string, string> = {};
  credential.env.forEach((name, index) => {
    out[name] = `test-${credential.scheme.replace(/[^A-Za-z0-9]+/g, '-')}-${index}-value`;
  });
  return out;
}

function expectedPlacement(
  credential: CredentialModel,
  env: Record<string, string>,
): { in: string; name: string; expect: string } | undefined {
  const value = (index: number) => env[credential.env[index] ?? ''] ?? '';
  switch (credential.kind) {
    case 'apiKey':
      return {
        in: credential.in ?? 'header',
        name: credential.name ?? '',
        expect: credential.in === 'cookie' ? encodeURIComponent(value(0)) : value(0),
      };
    case 'httpBasic':
      return { in: 'header', name: 'Authorization', expect: `Basic ${Buffer.from(`${value(0)}:${value(1)}`).toString('base64')}` };
    case 'oauth2ClientCredentials':
      return { in: 'header', name: 'Authorization', expect: `Bearer ${value(2)}` };
    default:
      return { in: 'header', name: 'Authorization', expect: `Bearer ${value(0)}` };
  }
}
