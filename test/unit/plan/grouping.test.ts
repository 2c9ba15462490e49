import { describe, expect, it } from 'vitest';
import type { OperationModel } from '../../../src/model/api-model.js';
import { describeTool, summaryWords } from '../../../src/plan/describe/describe-tool.js';
import { type ActionSummary } from '../../../src/plan/drafts.js';
import { groupOperations, type Grouping } from '../../../src/plan/group/group-operations.js';
import { type GroupingUnit, type OperationGroup } from '../../../src/plan/drafts.js';
import { commonPrefix, staticSegments } from '../../../src/plan/group/resource-path.js';
import { MAX_BRANCHES } from '../../../src/plan/group/limits.js';
import { openapi, planOf } from '../../helpers/inline.js';

const limits = { maxTools: 64, maxActions: 12, maxArguments: 40 };

function unit(path: string, resource: string[], argumentNames: string[] = ['id']): GroupingUnit {
  const operation = { key: `GET ${path}`, id: path, path, method: 'get', tags: [], extension: {} } as unknown as OperationModel;
  return { operation, intent: 'read', resource, scopes: resource.map(() => false), identity: ['id'], argumentNames };
}

describe('grouping', () => {
  it('takes the resource of an RPC call on one URL from its action name (AWS query APIs)', () => {
    expect(staticSegments('/#Action=DescribeClusterSnapshots')).toEqual(['cluster', 'snapshot']);
    expect(staticSegments('/?Action=RunInstances&Version=2016-11-15')).toEqual(['instance']);
    expect(staticSegments('/#Action=BatchDeleteClusterSnapshots')).toEqual(['cluster', 'snapshot']);
    expect(staticSegments('/#Action=PromoteReadReplica')).toEqual(['read', 'replica']);
    // A path with segments keeps them; the literal query only pins a parameter.
    expect(staticSegments('/v1/things?action=list')).toEqual(['v1', 'things']);
    // AWS JSON APIs name service and action in the target header; qualifiers and joiners name nothing.
    expect(staticSegments('/#X-Amz-Target=AWSCognitoIdentityProviderService.AdminGetDevice')).toEqual(['device']);
    expect(staticSegments('/#Action=RemoveFromGlobalCluster')).toEqual(['global', 'cluster']);
    expect(staticSegments('/#Action=DescribeAddresses')).toEqual(['address']);
    // OData keys and function arguments are parameters: one function, whatever it is called with.
    expect(staticSegments("/reports/getYammerActivityUserDetail(period='{period}')")).toEqual(
      staticSegments('/reports/getYammerActivityUserDetail(date={date})'),
    );
  });

  it('classifies an RPC action by its verb, whatever the method AWS offers it by', async () => {
    const action = (name: string) => ({
      get: { operationId: `GET_${name}`, responses: { 200: { description: 'ok' } } },
      post: { operationId: `POST_${name}`, responses: { 200: { description: 'ok' } } },
    });
    const names = ['DescribeClusters', 'CreateCluster', 'DeleteCluster', 'AdminGetCluster', 'BatchGetClusters'];
    const { plan } = await planOf(openapi(Object.fromEntries(names.map((name) => [`/#Action=${name}`, action(name)]))));
    const intentOf = (id: string) => plan.tools.find((tool) => tool.actions.some((entry) => entry.operation.id === id))?.intent;
    expect(['GET_DescribeClusters', 'POST_DescribeClusters', 'GET_AdminGetCluster', 'POST_BatchGetClusters'].map(intentOf)).toEqual([
      'read',
      'read',
      'read',
      'read',
    ]);
    expect(['GET_CreateCluster', 'POST_CreateCluster'].map(intentOf)).toEqual(['write', 'write']);
    expect(['GET_DeleteCluster', 'POST_DeleteCluster'].map(intentOf)).toEqual(['delete', 'delete']);
  });

  it('takes the resource of a path that names only its version from the dotted operationId (Google APIs)', async () => {
    const ok = { 200: { description: 'ok' } };
    const { plan } = await planOf(
      openapi({
        '/v1/{+parent}/datasets': { get: { operationId: 'aiplatform.projects.locations.datasets.list', responses: ok } },
        '/v1/{+name}': {
          get: { operationId: 'aiplatform.projects.locations.datasets.get', responses: ok },
          delete: { operationId: 'aiplatform.projects.locations.datasets.delete', responses: ok },
        },
        '/v1/{+name}:cancel': { post: { operationId: 'aiplatform.projects.locations.trainingPipelines.cancel', responses: ok } },
        '/v1/{+parent}/trainingPipelines': {
          post: { operationId: 'aiplatform.projects.locations.trainingPipelines.create', responses: ok },
        },
      }),
    );
    const toolOf = (id: string) => plan.tools.find((tool) => tool.actions.some((entry) => entry.operation.id === id))?.name;
    expect(toolOf('aiplatform.projects.locations.datasets.get')).toBe(toolOf('aiplatform.projects.locations.datasets.list'));
    expect(toolOf('aiplatform.projects.locations.datasets.get')).toBe('datasets_read');
    expect(toolOf('aiplatform.projects.locations.trainingPipelines.cancel')).toBe('training_pipelines_write');
    expect(plan.tools.map((tool) => tool.name)).not.toContain('v1_read');
  });

  it('splits a resource with more operations than one tool may hold', () => {
    const units = Array.from({ length: 100 }, (_, index) => unit(`/#Action=Get${index}`, ['api']));
    const groups = loosest(groupOperations(units, 'auto', limits));
    expect(groups.flatMap((group) => group.units)).toHaveLength(100);
    expect(Math.max(...groups.map((group) => group.units.length))).toBeLessThanOrEqual(40);
  });

  it('splits a resource whose operations take more arguments together than one tool may hold', () => {
    const units = Array.from({ length: 10 }, (_, index) =>
      unit(
        `/calls/${index}`,
        ['calls'],
        Array.from({ length: 20 }, (__, argument) => `a${index}_${argument}`),
      ),
    );
    const groups = loosest(groupOperations(units, 'auto', limits));
    for (const group of groups) expect(new Set(group.units.flatMap((member) => member.argumentNames)).size).toBeLessThanOrEqual(90);
  });

  it('counts a coarsened group’s resources below what its members share, however deep', () => {
    // Microsoft Graph: thousands of groups, forty workbook functions side by side below one `…/functions`.
    const units = Array.from({ length: 2_100 }, (_, index) =>
      index < 40
        ? unit(`/drives/{d}/workbook/functions/fn${index}`, ['drives', 'workbook', 'functions', `fn${index}`])
        : unit(`/area${index}/thing`, [`area${index}`, 'thing']),
    );
    const groups = loosest(groupOperations(units, 'auto', limits));
    for (const group of groups) {
      const functions = group.units.filter((member) => member.resource[0] === 'drives');
      expect(new Set(functions.map((member) => member.resource[3])).size).toBeLessThanOrEqual(MAX_BRANCHES);
    }
  });

  it('groups ten thousand operations on distinct resources by family, without quadratic blow-up', () => {
    // Microsoft Graph's shape: thousands of resources, a few operations each. Without coarsening the clustering kept
    // a score for all 9,000² pairs (650 MB) and took minutes.
    const units = Array.from({ length: 9_000 }, (_, index) =>
      unit(`/area${index % 30}/part${Math.floor(index / 30) % 10}/thing${index}`, [
        `area${index % 30}`,
        `part${Math.floor(index / 30) % 10}`,
        `thing${index}`,
      ]),
    );
    const groups = loosest(groupOperations(units, 'auto', limits));
    // 300 families (area × part) of 30 resources each: no tool spans more than MAX_BRANCHES resources side by side
    // below what its members share, so each family takes at least two.
    expect(groups.length).toBeGreaterThan(300);
    expect(groups.length).toBeLessThanOrEqual(600);
    for (const group of groups) {
      const resources = group.units.map((member) => member.resource);
      const shared = commonPrefix(resources).length;
      expect(new Set(resources.map((resource) => resource.slice(0, shared + 1).join('/'))).size).toBeLessThanOrEqual(MAX_BRANCHES);
    }
    expect(new Set(groups.flatMap((group) => group.units.map((member) => member.operation.key))).size).toBe(9_000);
  }, 60_000);

  it('plans an AWS-style query API into tools named after its resources', async () => {
    const action = (name: string) => ({
      get: { operationId: `GET_${name}`, responses: { 200: { description: 'ok' } } },
      post: { operationId: `POST_${name}`, responses: { 200: { description: 'ok' } } },
    });
    const actions = ['DescribeClusters', 'CreateCluster', 'DeleteCluster', 'DescribeClusterSnapshots', 'CreateClusterSnapshot'];
    const { plan } = await planOf(openapi(Object.fromEntries(actions.map((name) => [`/#Action=${name}`, action(name)]))));
    const names = plan.tools.map((tool) => tool.name);
    expect(names).toContain('cluster_read');
    expect(names).toContain('cluster_write');
    expect(plan.tools.flatMap((tool) => tool.actions)).toHaveLength(10);
  });
});

describe('lean descriptions', () => {
  // Google's APIs put the same dozen query parameters on every operation, and create, update and patch of a
  // resource take the same body fields: listed per action, the lean description of one tool ran to 8,800 characters.
  const common = ['alt', 'fields', 'prettyPrint', 'quotaUser'];
  const action = (name: string, optional: string[], needs: string[] = []): ActionSummary => ({
    name,
    operation: { deprecated: false } as OperationModel,
    summary: name,
    summaryWords: summaryWords(name),
    needs,
    returns: '',
    optional: [...common, ...optional],
  });

  it('name arguments every action takes once, and give every action a line with the arguments it takes', () => {
    const body = ['colour', 'label', 'size'];
    const description = describeTool({
      apiTitle: 'Things API',
      resourceLabel: 'things',
      contents: [],
      intent: 'write',
      actions: [
        action('insert_thing', body),
        action('patch_thing', body, ['id']),
        action('touch_thing', [], ['id']),
        action('update_thing', body, ['id']),
      ],
      siblings: {},
      detail: 6,
    });
    expect(description).toContain('Actions (all also take optional alt, fields, prettyPrint, quotaUser):');
    expect(description).toContain(
      '\n- insert_thing(colour?, label?, size?)\n- patch_thing(id, colour?, label?, size?)\n- touch_thing(id)\n',
    );
    expect(description.match(/quotaUser/g)).toHaveLength(1);
  });
});

/** The groups at a budget nothing exceeds: the grouping before any merge the budget would force. */
function loosest(grouping: Grouping): OperationGroup[] {
  return grouping.groupsAt(grouping.stateAt(1_000_000));
}
