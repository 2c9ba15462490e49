import { describe, expect, it } from 'vitest';
import { runPlan } from '../../src/pipeline.js';
import type { ToolPlan } from '../../src/plan/tool-plan.js';
import { headerViolations } from '../../src/plan/validate-headers.js';
import { CORPUS, corpusOptions } from '../helpers/corpus.js';

/** Deliberately independent of the planner's own word lists: a second opinion on what a secret looks like. */
const SECRET_NAME = /token|secret|passw|api.?key|auth|credential|session|cookie|signature|otp|e.?mail|phone|ssn/i;

/**
 * Routing parameters the corpus is known for (../shared/specs/MANIFEST.md, and the same vendors' descriptions in
 * APIs.guru's collection); each must be marked somewhere.
 */
const EXPECTED: Record<string, Array<{ property: string; header: string }>> = {
  'twilio-api-v2010': [{ property: 'AccountSid', header: 'Account-Sid' }],
  'xero-accounting': [{ property: 'xero-tenant-id', header: 'Xero-Tenant-Id' }],
  'sendgrid-v3': [{ property: 'on-behalf-of', header: 'On-Behalf-Of' }],
  'adyen-management-v3': [
    { property: 'companyId', header: 'Company-Id' },
    { property: 'merchantId', header: 'Merchant-Id' },
  ],
  'asana-api': [{ property: 'workspace_gid', header: 'Workspace-Gid' }],
  'argo-workflows': [{ property: 'namespace', header: 'Namespace' }],
  'apis-guru-twilio-api': [{ property: 'AccountSid', header: 'Account-Sid' }],
  'apis-guru-xero-accounting': [{ property: 'xero-tenant-id', header: 'Xero-Tenant-Id' }],
  'apis-guru-sendgrid': [{ property: 'on-behalf-of', header: 'On-Behalf-Of' }],
  'apis-guru-adyen-management-v3': [
    { property: 'companyId', header: 'Company-Id' },
    { property: 'merchantId', header: 'Merchant-Id' },
  ],
  'apis-guru-asana': [{ property: 'workspace_gid', header: 'Workspace-Gid' }],
};

/** Every way a marking of the plan could leak a secret or break SEP-2243; empty when the plan is sound. */
function headerProblems(plan: ToolPlan): string[] {
  const problems: string[] = [];
  const credentialNames = new Set(plan.api.credentials.flatMap((credential) => (credential.name ? [credential.name.toLowerCase()] : [])));
  for (const tool of plan.tools) {
    for (const violation of headerViolations(tool.inputSchema)) problems.push(`${tool.name}.${violation.path}: ${violation.message}`);
    const properties = tool.inputSchema['properties'] as Record<string, Record<string, unknown>>;
    const declared = Object.entries(properties)
      .filter(([, schema]) => schema['x-mcp-header'] !== undefined)
      .map(([key]) => key)
      .sort();
    const reported = tool.headers.marked.map((decision) => decision.property).sort();
    if (JSON.stringify(declared) !== JSON.stringify(reported))
      problems.push(`${tool.name}: schema marks ${declared}, plan reports ${reported}`);
    for (const key of declared) {
      const schema = properties[key] ?? {};
      if (schema['format'] === 'password' || schema['writeOnly'] === true) problems.push(`${tool.name}.${key}: secret schema marked`);
      for (const action of tool.actions) {
        const route = action.route.arguments.find((argument) => argument.arg === key);
        if (!route) continue;
        if (route.in !== 'path' && route.in !== 'query' && route.in !== 'header') {
          problems.push(`${tool.name}.${key}: marked, but action ${action.name} takes it from ${route.in}`);
          continue;
        }
        if (SECRET_NAME.test(route.name) || SECRET_NAME.test(key))
          problems.push(`${tool.name}.${key}: secret-like name ${route.name} marked`);
        if (credentialNames.has(route.name.toLowerCase())) problems.push(`${tool.name}.${key}: credential parameter ${route.name} marked`);
      }
    }
  }
  return problems;
}

describe.each(CORPUS)('$name: x-mcp-header markings', (entry) => {
  it('marks no secret, keeps every marking valid and marks the known routing parameters', async () => {
    const result = await runPlan(corpusOptions(entry));
    expect(result.ok).toBe(true);
    const plan = result.plan as ToolPlan;
    expect(headerProblems(plan)).toEqual([]);
    expect(result.diagnostics.filter((diagnostic) => diagnostic.code === 'OTM_HEADER_INVALID')).toEqual([]);
    const marked = plan.tools.flatMap((tool) => tool.headers.marked.map(({ property, header }) => ({ property, header })));
    for (const expected of EXPECTED[entry.name] ?? []) expect(marked).toContainEqual(expected);
  });
});
