import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CACHE_DIR, type Signer } from '../../src/cache/signed-store.js';
import { WorkMemo } from '../../src/cache/work-memo.js';
import type { ApiModel } from '../../src/model/api-model.js';
import type { ToolModel } from '../../src/plan/tool-plan.js';
import { modelOf, openapi, planOf } from '../helpers/inline.js';
import { tempDir } from '../helpers/project.js';

const ok = { 200: { description: 'ok' } };

async function modelWith(summary: string): Promise<ApiModel> {
  const text = openapi({ '/orders': { get: { summary, responses: ok } }, '/users': { get: { responses: ok } } });
  return (await modelOf(text)).model;
}

const nameDraft = { candidates: [['orders', 'read']], label: 'orders', contents: [], sortKey: 'GET /orders' };
const decisions = { decisions: { marked: [{ property: 'org', header: 'Org', reason: 'routing' }], refused: [] }, diagnostics: [] };

/** Asks the memo for one value of `kind` per operation, counting the values it had to make. */
function ask(memo: WorkMemo, kind: string, model: ApiModel, value: unknown): { values: unknown[]; made: number } {
  let made = 0;
  const values = model.operations.map((operation) =>
    memo.shared(
      kind,
      () => 'key',
      [operation],
      () => {
        made++;
        return structuredClone(value);
      },
    ),
  );
  return { values, made };
}

async function saved(memo: WorkMemo, outDir: string, signer: Signer): Promise<void> {
  await mkdir(outDir, { recursive: true });
  await memo.save(outDir, signer);
}

describe('the work memo across processes', () => {
  const signer: Signer = { secret: randomBytes(32), fingerprint: 'test' };

  it('answers header decisions and action names from the file, and makes again only those of a changed operation', async () => {
    const outDir = await tempDir('work-memo');
    const before = await modelWith('List orders');
    const first = WorkMemo.empty(before, 'none');
    expect(ask(first, 'headers', before, decisions).made).toBe(2);
    expect(ask(first, 'action-names', before, ['list']).made).toBe(2);
    expect(ask(first, 'name-drafts', before, nameDraft).made).toBe(2);
    // Asked again in the same run (the budget search's next round): nothing is made again.
    expect(ask(first, 'headers', before, decisions).made).toBe(0);
    await saved(first, outDir, signer);

    const same = await WorkMemo.open(outDir, signer, await modelWith('List orders'), 'none');
    const sameModel = await modelWith('List orders');
    expect(ask(same, 'headers', sameModel, decisions)).toEqual({ values: [decisions, decisions], made: 0 });
    expect(ask(same, 'action-names', sameModel, ['list'])).toEqual({ values: [['list'], ['list']], made: 0 });
    expect(ask(same, 'name-drafts', sameModel, nameDraft)).toEqual({ values: [nameDraft, nameDraft], made: 0 });

    const changed = await modelWith('List the orders');
    const next = await WorkMemo.open(outDir, signer, changed, 'none');
    expect(ask(next, 'headers', changed, decisions).made).toBe(1);
  });

  it('keeps no other kind in the file, and drops kept values of the wrong shape', async () => {
    const outDir = await tempDir('work-memo-shapes');
    const model = await modelWith('List orders');
    const first = WorkMemo.empty(model, 'none');
    ask(first, 'headers', model, decisions);
    ask(first, 'cluster', model, { units: [] });
    await saved(first, outDir, signer);
    const file = path.join(outDir, CACHE_DIR, 'work.json');
    const body = JSON.parse((await readFile(file, 'utf8')).split('\n')[1] as string) as { shared: Record<string, unknown> };
    expect(Object.keys(body.shared)).toEqual(['headers']);

    // A file signed with this user's key, whose header entries have lost their reasons: they are made again.
    const broken = WorkMemo.empty(model, 'none');
    ask(broken, 'headers', model, { decisions: { marked: [{ property: 'org' }], refused: [] }, diagnostics: [] });
    await saved(broken, outDir, signer);
    // And name drafts whose candidates are no lists of words.
    ask(broken, 'name-drafts', model, { ...nameDraft, candidates: ['orders_read'] });
    await saved(broken, outDir, signer);
    const reopened = await WorkMemo.open(outDir, signer, model, 'none');
    expect(ask(reopened, 'headers', model, decisions)).toEqual({ values: [decisions, decisions], made: 2 });
    expect(ask(reopened, 'name-drafts', model, nameDraft)).toEqual({ values: [nameDraft, nameDraft], made: 2 });
  });

  it('makes every value again under another key or another context', async () => {
    const outDir = await tempDir('work-memo-context');
    const model = await modelWith('List orders');
    const first = WorkMemo.empty(model, 'none');
    ask(first, 'headers', model, decisions);
    await saved(first, outDir, signer);
    expect(ask(await WorkMemo.open(outDir, signer, model, 'loose'), 'headers', model, decisions).made).toBe(2);
    const other = await WorkMemo.open(outDir, signer, model, 'none');
    let made = 0;
    for (const operation of model.operations)
      other.shared(
        'headers',
        () => 'another key',
        [operation],
        () => {
          made++;
          return decisions;
        },
      );
    expect(made).toBe(2);
    await writeFile(path.join(outDir, CACHE_DIR, 'work.json'), 'not a memo');
    expect(ask(await WorkMemo.open(outDir, signer, model, 'none'), 'headers', model, decisions).made).toBe(2);
  });

  it("answers a tool's action cases from the file for the same tool under the same named schemas only", async () => {
    const outDir = await tempDir('work-memo-cases');
    const model = await modelWith('List orders');
    const plan = (await planOf(openapi({ '/orders': { get: { responses: ok } } }))).plan;
    const tool = plan.tools[0] as ToolModel;
    const first = WorkMemo.empty(model, 'none');
    expect(first.toolCases(tool, () => 'cases of the tool\n')).toBe('cases of the tool\n');
    await saved(first, outDir, signer);
    const never = () => expect.unreachable('made again');
    expect((await WorkMemo.open(outDir, signer, model, 'none')).toolCases(structuredClone(tool), never)).toBe('cases of the tool\n');
    const renamed = { ...tool, description: `${tool.description} More.` };
    expect((await WorkMemo.open(outDir, signer, model, 'none')).toolCases(renamed, () => 'made')).toBe('made');
    // Another title: another plan-wide context (as other named schemas or servers would be).
    const retitled = { ...model, title: 'Another API' };
    expect((await WorkMemo.open(outDir, signer, retitled, 'none')).toolCases(tool, () => 'made')).toBe('made');
  });
});
