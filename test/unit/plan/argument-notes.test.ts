import { describe, expect, it } from 'vitest';
import { runPlan } from '../../../src/pipeline.js';
import { bodyFieldsPhrase } from '../../../src/plan/arguments/body-fields.js';
import { buildArguments } from '../../../src/plan/arguments/build-arguments.js';
import { inputDefs } from '../../../src/plan/arguments/input-defs.js';
import { summarizeOperations } from '../../../src/plan/describe/action-summary.js';
import { conditionNotes, conditionPhrase, typeNote, typeNotes } from '../../../src/plan/describe/argument-notes.js';
import type { OperationSummary } from '../../../src/plan/drafts.js';
import { Diagnostics } from '../../../src/diagnostics/diagnostic.js';
import { fragment } from '../../helpers/paths.js';
import { actionOf, toolOf } from './plan-fixture.js';

/** A fragment's plan, and each operation's summary by operationId as the planner writes it. */
async function planned(entry: string, budget?: { maxToolTokens: number }) {
  const result = await runPlan({ spec: fragment(entry), validate: false, ...(budget ? { budget } : {}) });
  const { model, plan } = result;
  if (!model || !plan) throw new Error(result.diagnostics.map((item) => item.message).join('; '));
  const defs = inputDefs(model.schemas);
  const drafts = new Map(model.operations.map((operation) => [operation.key, buildArguments(operation, defs, new Diagnostics())]));
  const summaries = summarizeOperations(model.operations, drafts, defs);
  const summary = (operationId: string): OperationSummary => {
    const found = [...summaries.values()].find((candidate) => candidate.operation.id === operationId);
    if (!found) throw new Error(`no summary of ${operationId}`);
    return found;
  };
  return { plan, summary };
}

describe("an action's own argument types, where the merged schema cannot say them", () => {
  it('are on each summary, and the note names the ones another action types otherwise', async () => {
    const { plan, summary } = await planned('contradictions.yaml');
    // The premise: one tool, whose merged property cannot say which type each action takes.
    const tool = toolOf(plan, 'GET /help_centers/{help_center_id}/articles');
    expect(tool.actions.map((action) => action.operation.id).sort()).toEqual(['getArticle', 'listArticles']);
    expect((tool.inputSchema['properties'] as Record<string, unknown>)['help_center_id']).toEqual({
      anyOf: [{ type: 'string' }, { type: 'integer' }],
    });
    const list = summary('listArticles');
    const get = summary('getArticle');
    expect(list.argumentTypes).toEqual([
      ['help_center_id', 'integer'],
      ['include_archived', 'string'],
      ['labels', 'array'],
    ]);
    expect(get.argumentTypes).toEqual([
      ['help_center_id', 'string'],
      ['article_id', 'integer'],
    ]);
    expect(typeNotes(list, [list, get])).toEqual(['help_center_id: integer']);
    expect(typeNote(get, [list, get])).toBe('help_center_id: string');
    expect(typeNote(get, [get])).toBe('');
  });

  it("name SendGrid's list_id, a string in one deletion and an integer in the other", async () => {
    const { plan, summary } = await planned('sendgrid-list-ids.json');
    const tool = toolOf(plan, 'DELETE /contactdb/lists/{list_id}');
    expect(tool.actions).toHaveLength(2);
    expect((tool.inputSchema['properties'] as Record<string, unknown>)['list_id']).toMatchObject({
      anyOf: [{ type: 'string' }, { type: 'integer' }],
    });
    const list = summary('DELETE_contactdb-lists-list_id');
    const recipient = summary('DELETE_contactdb-lists-list_id-recipients-recipient_id');
    expect(typeNotes(list, [list, recipient])).toEqual(['list_id: string']);
    // recipient_id is a string in the path and an integer in the query: two arguments, each with one type.
    expect(typeNotes(recipient, [list, recipient])).toEqual(['list_id: integer']);
  });

  it('say nullable and union types in words, null last', () => {
    const one = {
      argumentTypes: [
        ['id', 'integer or null'],
        ['tags', 'array'],
      ] as Array<[string, string]>,
    };
    const other = {
      argumentTypes: [
        ['id', 'integer'],
        ['tags', 'array'],
      ] as Array<[string, string]>,
    };
    expect(typeNotes(one, [one, other])).toEqual(['id: integer or null']);
  });
});

describe('requirements that hold only in some calls', () => {
  it('come from dependentRequired and if/then on a value, in the words of the refusal', async () => {
    const { plan, summary } = await planned('conditions.yaml');
    expect(summary('updateIssue').conditions).toEqual([
      { kind: 'with', when: 'state', required: ['title'] },
      { kind: 'value', when: 'state', values: ['closed'], required: ['state_reason'] },
    ]);
    expect(conditionNotes(summary('updateIssue'))).toEqual([
      'title is required when state is sent',
      'state_reason is required when state is "closed"',
    ]);
    // The body is still flattened into arguments, and the server checks what the line says.
    expect(actionOf(plan, 'PATCH /issues/{number}').argumentsSchema).toMatchObject({
      dependentRequired: { state: ['title'] },
      allOf: [{ if: { properties: { state: { enum: ['closed'] } }, required: ['state'] }, then: { required: ['state_reason'] } }],
    });
  });

  it("come from an optional body's required fields", async () => {
    const { summary } = await planned('conditions.yaml');
    expect(conditionNotes(summary('createComment'))).toEqual(['body is required once any body field is sent']);
  });

  it("come from Swagger 2.0's dependencies", async () => {
    const { plan, summary } = await planned('conditions-swagger2.json');
    expect(conditionNotes(summary('createMilestone'))).toEqual(['timezone is required when due_on is sent']);
    expect(actionOf(plan, 'POST /milestones').argumentsSchema).toMatchObject({ dependentRequired: { due_on: ['timezone'] } });
  });

  it("come from anyOf variants that differ in what they require (OpenAI's file batches)", async () => {
    const { summary } = await planned('openai-file-batches.yaml');
    expect(summary('createVectorStoreFileBatch').conditions).toEqual([{ kind: 'alternatives', alternatives: [['file_ids'], ['files']] }]);
    expect(conditionNotes(summary('createVectorStoreFileBatch'))).toEqual(['needs file_ids or files']);
  });

  it('join several names and alternatives readably', () => {
    expect(conditionPhrase({ kind: 'with', when: 'state', required: ['title', 'body'] })).toBe(
      'title and body are required when state is sent',
    );
    expect(conditionPhrase({ kind: 'value', when: 'kind', values: ['a', 2], required: ['x'] })).toBe('x is required when kind is "a" or 2');
    expect(conditionPhrase({ kind: 'alternatives', alternatives: [['a', 'b'], ['c']] })).toBe('needs a and b, or c');
    expect(conditionPhrase({ kind: 'alternatives', alternatives: [['a'], ['b'], ['c']] })).toBe('needs a, b or c');
  });
});

describe('a body taken whole', () => {
  it("names its first-level fields in the argument's description where a lean schema cuts them", async () => {
    const body = async (budget?: { maxToolTokens: number }) => {
      const { plan } = await planned('conditions.yaml', budget);
      const tool = toolOf(plan, 'PUT /issues/{number}/labels');
      return {
        detail: tool.detail,
        property: (tool.inputSchema['properties'] as Record<string, { description?: string }>)['request_body'],
      };
    };
    // At full detail the schema shows every field; lean, the description names them, required ones marked and
    // readOnly ones left out.
    const full = await body();
    expect(full.detail).toBe(0);
    expect(full.property?.description).toBeUndefined();
    const lean = await body({ maxToolTokens: 120 });
    expect(lean.detail).toBeGreaterThan(1);
    expect(lean.property?.description).toBe('Each item has the fields: name (required), color.');
  });

  it('cuts the list at a whole field and says how many more there are', () => {
    const fields = ['name', 'parent', 'description', 'folder_upload_email', 'sync_state', 'tags'].map((name, index) => ({
      name,
      required: index < 2,
    }));
    expect(bodyFieldsPhrase({ items: false, fields }, 60)).toBe('Fields: name (required), parent (required), and 4 more.');
    expect(bodyFieldsPhrase({ items: false, fields }, 300)).toBe(
      'Fields: name (required), parent (required), description, folder_upload_email, sync_state, tags.',
    );
    expect(bodyFieldsPhrase({ items: false, fields: [{ name: 'a_very_long_field_name_that_fills_it_all', required: false }] }, 10)).toBe(
      'Fields: a_very_long_field_name_that_fills_it_all.',
    );
  });
});
