import { describe, expect, it } from 'vitest';
import type { ToolPlan } from '../../../src/plan/tool-plan.js';
import { openapi, planOf } from '../../helpers/inline.js';

/** Read, create, update and delete of a collection and its items. */
function crud(collection: string, item: string, id: string): Record<string, object> {
  const parameters = [{ name: id, in: 'path', required: true, schema: { type: 'string' } }];
  const ok = { 200: { description: 'ok' } };
  return {
    [collection]: { get: { operationId: `list${collection}`, responses: ok }, post: { operationId: `create${collection}`, responses: ok } },
    [item]: {
      get: { operationId: `get${item}`, parameters, responses: ok },
      patch: { operationId: `update${item}`, parameters, responses: ok },
      delete: { operationId: `delete${item}`, parameters, responses: ok },
    },
  };
}

/** The tool holding an operation (method and path). */
function toolOf(plan: ToolPlan, method: string, path: string): string {
  const tool = plan.tools.find((candidate) => candidate.actions.some((action) => action.operation.key === `${method} ${path}`));
  if (!tool) throw new Error(`no tool holds ${method} ${path}`);
  return tool.name;
}

/** Every budget pushed as low as it goes: whatever merging the planner allows, it does. */
const TIGHT = { maxTools: 1, budget: { tokensPerOperation: 1, maxTotalTokens: 4000 } };

describe('tools hold one resource family', () => {
  it('never merges resources that share only a noun in different namespaces, however tight the budget', async () => {
    // Stripe: checkout sessions and billing portal sessions, shipping rates and tax rates are different things.
    const paths = {
      ...crud('/checkout/sessions', '/checkout/sessions/{session}', 'session'),
      ...crud('/billing_portal/sessions', '/billing_portal/sessions/{session}', 'session'),
      ...crud('/shipping_rates', '/shipping_rates/{rate}', 'rate'),
      ...crud('/tax_rates', '/tax_rates/{rate}', 'rate'),
      ...crud('/coupons', '/coupons/{coupon}', 'coupon'),
    };
    const { plan, diagnostics } = await planOf(openapi(paths), TIGHT);
    for (const resource of ['checkout', 'billing_portal', 'shipping_rates', 'tax_rates', 'coupons']) {
      const tools = plan.tools.filter((tool) => tool.actions.some((action) => action.operation.path.startsWith(`/${resource}`)));
      for (const tool of tools)
        expect(
          tool.actions.every((action) => action.operation.path.startsWith(`/${resource}`)),
          tool.name,
        ).toBe(true);
    }
    expect(plan.tools.map((tool) => tool.name)).toContain('checkout_sessions_read');
    expect(plan.tools.map((tool) => tool.name)).toContain('billing_portal_sessions_read');
    // Over its limits, the plan says so rather than gluing families together.
    expect(diagnostics.items.some((item) => item.code === 'OTM_BUDGET_EXCEEDED')).toBe(true);
  });

  it('keeps one resource below different scopes together, and a namespace’s resources', async () => {
    const paths = {
      ...crud('/orgs/{org}/actions/secrets', '/orgs/{org}/actions/secrets/{name}', 'name'),
      ...crud('/repos/{owner}/{repo}/actions/secrets', '/repos/{owner}/{repo}/actions/secrets/{name}', 'name'),
      ...crud('/issuing/cards', '/issuing/cards/{card}', 'card'),
      ...crud('/issuing/disputes', '/issuing/disputes/{dispute}', 'dispute'),
    };
    const { plan } = await planOf(openapi(paths), TIGHT);
    expect(toolOf(plan, 'GET', '/orgs/{org}/actions/secrets')).toBe(toolOf(plan, 'GET', '/repos/{owner}/{repo}/actions/secrets'));
    expect(toolOf(plan, 'GET', '/issuing/cards')).toBe(toolOf(plan, 'GET', '/issuing/disputes'));
    expect(toolOf(plan, 'GET', '/issuing/cards')).toBe('issuing_read');
  });

  it('does not name a tool after a family its members do not share', async () => {
    // Both hold the words `repos` and `labels`, but runner labels are not a repository's labels.
    const paths = {
      ...crud('/repos/{owner}/{repo}/labels', '/repos/{owner}/{repo}/labels/{name}', 'name'),
      ...crud(
        '/repos/{owner}/{repo}/actions/runners/{runner}/labels',
        '/repos/{owner}/{repo}/actions/runners/{runner}/labels/{name}',
        'name',
      ),
    };
    const { plan } = await planOf(openapi(paths), TIGHT);
    const labels = toolOf(plan, 'POST', '/repos/{owner}/{repo}/labels');
    expect(labels).not.toBe(toolOf(plan, 'POST', '/repos/{owner}/{repo}/actions/runners/{runner}/labels'));
    expect(labels).toBe('labels_write');
  });

  it('splits the resources left on a scope into tools of their own past the branch cap', async () => {
    // GitHub's repository scope: dozens of small resources; one `repos_write` of them all is a bucket.
    const resources = Array.from({ length: 30 }, (_, index) => `thing${String.fromCharCode(97 + (index % 26))}${index}`);
    const paths = Object.fromEntries(
      resources.map((resource) => [
        `/repos/{owner}/{repo}/${resource}`,
        { post: { operationId: `create_${resource}`, responses: { 200: { description: 'ok' } } } },
      ]),
    );
    const { plan } = await planOf(openapi(paths), TIGHT);
    for (const tool of plan.tools) {
      const branches = new Set(tool.actions.map((action) => action.operation.path.split('/')[4]));
      expect(branches.size, tool.name).toBeLessThanOrEqual(16);
    }
    expect(plan.tools.flatMap((tool) => tool.actions)).toHaveLength(30);
  });
});

describe('tool names', () => {
  it('fit 40 characters by default, prefix included, say each word once, and follow --max-name-length', async () => {
    const paths = {
      ...crud('/organizations/{org}/settings/billing/budgets', '/organizations/{org}/settings/billing/budgets/{budget}', 'budget'),
      ...crud('/sage/{id}/sage-voice', '/sage/{id}/sage-voice/{voice}', 'voice'),
    };
    const names = async (options: object) => (await planOf(openapi(paths), options)).plan.tools.map((tool) => tool.name);
    for (const name of await names({ prefix: 'enterprise' })) {
      expect(name.length, name).toBeLessThanOrEqual(40);
      const words = name.split('_');
      expect(new Set(words).size, name).toBe(words.length);
    }
    for (const name of await names({ maxNameLength: 24 })) expect(name.length, name).toBeLessThanOrEqual(24);
    expect(await names({})).toContain('sage_voice_read');
  });

  it('keep the length when a name that starts with a digit gains op_', async () => {
    const paths = crud('/3dprinters', '/3dprinters/{printer}', 'printer');
    const { plan } = await planOf(openapi(paths), { maxNameLength: 16 });
    const names = plan.tools.map((tool) => tool.name);
    expect(
      names.every((name) => name.startsWith('op_3d')),
      names.join(),
    ).toBe(true);
    for (const name of names) expect(name.length, name).toBeLessThanOrEqual(16);
  });
});
