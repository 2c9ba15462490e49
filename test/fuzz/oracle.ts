import { DIAGNOSTIC_CATALOG } from '../../src/diagnostics/codes.js';
import type { JsonValue } from '../../src/kernel/json.js';
import { isSafeRelativePath } from '../../src/write/lock-file.js';
import { toolRuleViolations } from '../helpers/tool-rules.js';
import type { Report } from './sandbox.js';

const SEVERITIES = new Set(['error', 'warning', 'info']);

/**
 * What must hold for any input: the generator answers (no throw, no hang, no crash), with a plan that keeps the tool
 * rules and an emitted project (exit 0), or with error diagnostics that have a catalogued code and a message (exit 1).
 * Returns the problems found; none means the input was handled.
 */
export function problemsOf(report: Report): string[] {
  if (report.kind === 'hung') return [`hang: no answer within ${Math.round(report.elapsedMs / 1000)} s`];
  if (report.kind === 'crashed') return [`crash: ${report.error}`];
  if (report.kind === 'threw') return [`threw: ${report.error.split('\n').slice(0, 3).join(' | ')}`];
  const problems: string[] = [];
  for (const diagnostic of report.diagnostics) {
    if (!(diagnostic.code in DIAGNOSTIC_CATALOG)) problems.push(`diagnostic with an unknown code ${JSON.stringify(diagnostic.code)}`);
    if (!SEVERITIES.has(diagnostic.severity)) problems.push(`diagnostic with severity ${JSON.stringify(diagnostic.severity)}`);
    if (typeof diagnostic.message !== 'string' || diagnostic.message.trim().length < 10)
      problems.push(`${diagnostic.code} without a message: ${JSON.stringify(diagnostic.message)}`);
  }
  const errors = report.diagnostics.filter((diagnostic) => diagnostic.severity === 'error');
  if (!report.ok && errors.length === 0) problems.push('failed without an error diagnostic');
  if (report.ok && errors.length > 0) problems.push('succeeded with error diagnostics');
  if (report.ok && report.plan && report.operations) {
    const excluded = new Set(report.plan.excluded.map((entry) => entry.key));
    const selected = report.operations.filter((key) => !excluded.has(key));
    const schemaRefs = new Set(report.plan.tools.flatMap((tool) => refsInSchemaPositions(tool.inputSchema)));
    for (const violation of toolRuleViolations(report.plan, selected)) {
      // The shared rule reads `$ref` anywhere in the schema text; one inside an enum value or a default is data.
      const dangling = /dangling or external \$ref (.*)$/.exec(violation);
      if (dangling && !schemaRefs.has(dangling[1] as string)) continue;
      problems.push(`tool rule: ${violation}`);
    }
  }
  for (const error of report.schemaErrors ?? []) problems.push(`server would not start: input schema of ${error}`);
  for (const file of report.files ?? []) if (!isSafeRelativePath(file)) problems.push(`emitted a file outside the project: ${file}`);
  return problems;
}

/** Keywords whose values are data, not schemas: a `$ref` key inside them is not a reference. */
const DATA_KEYWORDS = new Set(['enum', 'const', 'default', 'examples', 'example']);
/** Keywords whose values map names (of properties, definitions) to schemas: the names are never keywords. */
const MAP_KEYWORDS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);

/** `$ref` values where JSON Schema reads them as references. */
function refsInSchemaPositions(schema: JsonValue): string[] {
  const out: string[] = [];
  const stack: Array<{ node: JsonValue; map: boolean }> = [{ node: schema, map: false }];
  while (stack.length > 0) {
    const { node, map } = stack.pop() as { node: JsonValue; map: boolean };
    if (Array.isArray(node)) stack.push(...node.map((item) => ({ node: item, map: false })));
    else if (node !== null && typeof node === 'object') {
      for (const [key, value] of Object.entries(node)) {
        if (map) stack.push({ node: value, map: false });
        else if (key === '$ref' && typeof value === 'string') out.push(value);
        else if (MAP_KEYWORDS.has(key)) stack.push({ node: value, map: true });
        else if (!DATA_KEYWORDS.has(key)) stack.push({ node: value, map: false });
      }
    }
  }
  return out;
}
