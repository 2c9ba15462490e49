import { describe, expect, it } from 'vitest';
import type { OperationModel } from '../../../src/model/api-model.js';
import type { GroupingUnit } from '../../../src/plan/drafts.js';
import { groupOperations, type Grouping } from '../../../src/plan/group/group-operations.js';

/**
 * Pins the whole merge sequence of a small API, state by state: the agglomerator keeps partners and pair scores
 * between merges and rounds rather than recomputing them, and that must never change which pair merges when.
 * The API has sub-resources (family merges), resources under three scopes (merges named after what they share),
 * unrelated resources (which never merge, whatever the tool limit), three intents and ties (resources alike but for
 * their names).
 */
function unit(method: string, path: string, argumentNames: string[], tag: string): GroupingUnit {
  const segments = path.split('/').filter((segment) => segment !== '');
  const resource = segments.filter((segment) => !segment.startsWith('{'));
  const scopes = segments.flatMap((segment, index) => (segment.startsWith('{') ? [] : [segments[index + 1]?.startsWith('{') ?? false]));
  const intent = method === 'get' ? 'read' : method === 'delete' ? 'delete' : 'write';
  const identity = argumentNames.filter((name) => name.endsWith('_id'));
  const operation = { key: `${method.toUpperCase()} ${path}`, id: `${method}${path}`, path, method, tags: [tag], extension: {} };
  return { operation: operation as unknown as OperationModel, intent, resource, scopes, identity, argumentNames };
}

function syntheticApi(): GroupingUnit[] {
  const units: GroupingUnit[] = [];
  for (const scope of ['orgs', 'users', 'teams']) {
    const owner = `${scope.slice(0, -1)}_id`;
    for (const resource of ['repos', 'hooks', 'members', 'projects']) {
      const base = `/${scope}/{${owner}}/${resource}`;
      const item = `${base}/{${resource.slice(0, -1)}_id}`;
      const tag = scope;
      units.push(unit('get', base, [owner, 'page', 'per_page'], tag));
      units.push(unit('post', base, [owner, 'name', 'description', `${resource}_config`], tag));
      units.push(unit('get', item, [owner, `${resource.slice(0, -1)}_id`], tag));
      units.push(unit('patch', item, [owner, `${resource.slice(0, -1)}_id`, 'name'], tag));
      units.push(unit('delete', item, [owner, `${resource.slice(0, -1)}_id`], tag));
      for (const sub of ['comments', 'events']) {
        const nested = `${item}/${sub}`;
        units.push(unit('get', nested, [owner, `${resource.slice(0, -1)}_id`, 'since'], tag));
        units.push(unit('post', nested, [owner, `${resource.slice(0, -1)}_id`, 'body'], tag));
      }
    }
  }
  for (const lone of ['emojis', 'meta', 'rate_limit', 'zen', 'octocat', 'licenses']) units.push(unit('get', `/${lone}`, [], 'misc'));
  return units;
}

/** Every state of a grouping, each as its tools (members by operation key), with the state each budget stops at. */
function sequence(grouping: Grouping): string[] {
  const states: string[] = [];
  for (let state = 0; state <= grouping.lastState; state++) {
    const tools = grouping.groupsAt(state).map((group) => group.units.map((member) => member.operation.key).join(' + '));
    states.push(`${state}: ${tools.length} tools; ${tools.join(' | ')}`);
  }
  const budgets = [0, 1_000, 2_000, 4_000, 8_000, 16_000].map((budget) => `${budget}→${grouping.stateAt(budget)}`);
  return [...states, budgets.join(' ')];
}

describe('merge order', () => {
  it('merges a synthetic API in the same order, state by state, under a tight tool limit', () => {
    const grouping = groupOperations(syntheticApi(), 'auto', { maxTools: 6, maxActions: 6, maxArguments: 12 });
    expect(sequence(grouping)).toMatchSnapshot();
  });

  it('merges it in the same order under the planner’s own limits', () => {
    const grouping = groupOperations(syntheticApi(), 'auto', { maxTools: 40, maxActions: 20, maxArguments: 90 });
    expect(sequence(grouping)).toMatchSnapshot();
  });
});
