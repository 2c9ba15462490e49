import type { ToolPlan } from '../../src/plan/tool-plan.js';

const NAME = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/;
const KEY = /^[a-zA-Z0-9_.-]{1,64}$/;
const ROOT_FORBIDDEN = ['oneOf', 'anyOf', 'allOf', 'if', 'then', 'else', 'not', '$schema'];
const SECRET_KEY = /^(authorization|api[-_]?key|x-api-key|access[-_]?token|client[-_]?secret)$/i;

/**
 * Every rule a tool list must keep; returns the violations (empty when the plan is sound). Credentials are the
 * server's: parameters that carry a security scheme's value or an Authorization-like header; body fields of the
 * API's own data (a `password` of a new user) are not credentials of the server.
 */
export function toolRuleViolations(plan: ToolPlan, operationKeys: string[]): string[] {
  const problems: string[] = [];
  const names = new Set<string>();
  const covered = new Map<string, number>();
  for (const tool of plan.tools) {
    const where = `tool ${tool.name}`;
    if (!NAME.test(tool.name)) problems.push(`${where}: invalid name`);
    if (names.has(tool.name.toLowerCase())) problems.push(`${where}: duplicate name`);
    names.add(tool.name.toLowerCase());
    const sentences = tool.description.split(/(?<=[.!?])\s+/).filter(Boolean);
    if (sentences.length < 3) problems.push(`${where}: description has ${sentences.length} sentences`);
    const schema = tool.inputSchema;
    if (schema['type'] !== 'object') problems.push(`${where}: root type is not object`);
    for (const keyword of ROOT_FORBIDDEN) if (keyword in schema) problems.push(`${where}: ${keyword} at the root`);
    const properties = (schema['properties'] ?? {}) as Record<string, unknown>;
    for (const key of Object.keys(properties)) if (!KEY.test(key)) problems.push(`${where}: property key ${JSON.stringify(key)}`);
    const text = JSON.stringify(schema);
    const defs = (schema['$defs'] ?? {}) as Record<string, unknown>;
    for (const match of text.matchAll(/"\$ref":"([^"]*)"/g)) {
      const ref = match[1] ?? '';
      if (!ref.startsWith('#/$defs/') || !(decodeURIComponent(ref.slice(8)).replace(/~1/g, '/').replace(/~0/g, '~') in defs))
        problems.push(`${where}: dangling or external $ref ${ref}`);
    }
    if (text.includes('"$schema"')) problems.push(`${where}: $schema inside the input schema`);
    const actionNames = new Set<string>();
    for (const action of tool.actions) {
      if (actionNames.has(action.name)) problems.push(`${where}: duplicate action ${action.name}`);
      actionNames.add(action.name);
      covered.set(action.operation.key, (covered.get(action.operation.key) ?? 0) + 1);
      for (const required of action.required)
        if (!(required in properties)) problems.push(`${where}: action ${action.name} needs ${required}, which the schema lacks`);
      for (const argument of action.route.arguments) {
        if (argument.in === 'body' || argument.in === 'body-whole') continue;
        // A path segment names a resource (Stripe's /v1/issuing/authorizations/{authorization} takes an id), never
        // a credential: the server cannot leave it out, and a name alone does not make it a secret.
        const credential =
          (argument.in !== 'path' && SECRET_KEY.test(argument.name)) ||
          plan.api.credentials.some((entry) => entry.in === argument.in && entry.name?.toLowerCase() === argument.name.toLowerCase());
        if (credential)
          problems.push(`${where}: action ${action.name} takes the credential ${argument.in} parameter ${argument.name} as an argument`);
      }
    }
    if (tool.actions.length > 1) {
      const selector = properties['action'] as { enum?: string[] } | undefined;
      if (!selector?.enum || selector.enum.length !== tool.actions.length)
        problems.push(`${where}: action selector does not list every action`);
    }
  }
  for (const key of operationKeys) {
    const count = covered.get(key) ?? 0;
    if (count !== 1) problems.push(`operation ${key} is reachable ${count} times`);
  }
  for (const key of covered.keys()) if (!operationKeys.includes(key)) problems.push(`unknown operation ${key} in the plan`);
  return problems;
}
