import { describe, expect, it } from 'vitest';
import { Diagnostics } from '../../../src/diagnostics/diagnostic.js';
import { loadSpec } from '../../../src/load/load-spec.js';
import type { ApiModel, OperationModel } from '../../../src/model/api-model.js';
import { buildApiModel } from '../../../src/model/build-api-model.js';
import type { BuildRecord, OperationSummary, PlanMemo } from '../../../src/plan/drafts.js';
import { planTools } from '../../../src/plan/plan-tools.js';
import { fixtureSpec } from '../../helpers/paths.js';
import { withDefaults } from '../../helpers/options.js';

/** Build records by key and operations, as the regeneration cache keeps them between runs (without signing). */
class RecordsMemo implements PlanMemo {
  /** Records handed out that held no characters yet: builds the planner had to make. */
  made = 0;
  readonly used = new Map<string, BuildRecord>();

  constructor(private readonly stored = new Map<string, BuildRecord>()) {}

  buildRecord(key: string, operations: OperationModel[]): BuildRecord {
    const id = JSON.stringify([key, operations]);
    const record = this.used.get(id) ?? { ...this.stored.get(id) };
    if (record.characters === undefined) this.made++;
    this.used.set(id, record);
    return record;
  }

  operationSummary(_operation: OperationModel, make: () => OperationSummary): OperationSummary {
    return make();
  }
}

async function museum(): Promise<ApiModel> {
  const diagnostics = new Diagnostics();
  const document = await loadSpec(withDefaults({ spec: fixtureSpec('redocly-museum.yaml') }), diagnostics);
  if (!document) throw new Error('load failed');
  return buildApiModel(document, diagnostics);
}

// A tight budget: the search tries several detail levels per tool and keeps one.
const tight = withDefaults({ budget: { maxToolTokens: 400, tokensPerOperation: 60, maxTotalTokens: 900 } });

describe('tool builds taken from an earlier run', () => {
  it('plan exactly as without them, with no build made for the search and every kept count reused', async () => {
    const model = await museum();
    const plain = planTools(model, tight, new Diagnostics());
    const first = new RecordsMemo();
    const recorded = planTools(model, { ...tight, memo: first }, new Diagnostics());
    expect(JSON.stringify(recorded)).toBe(JSON.stringify(plain));
    expect(first.made).toBeGreaterThan(plain.tools.length);

    const second = new RecordsMemo(first.used);
    const reused = planTools(model, { ...tight, memo: second }, new Diagnostics());
    expect(JSON.stringify(reused)).toBe(JSON.stringify(plain));
    expect(second.made).toBe(0);
    // The kept tools' exact counts were the records' (none counted again).
    expect([...second.used.values()].filter((record) => record.exactTokens !== undefined).length).toBe(
      [...first.used.values()].filter((record) => record.exactTokens !== undefined).length,
    );
  });

  it('plan exactly as without them when only characters are known (exact counts made again)', async () => {
    const model = await museum();
    const plain = planTools(model, tight, new Diagnostics());
    const first = new RecordsMemo();
    planTools(model, { ...tight, memo: first }, new Diagnostics());
    const charactersOnly = new Map([...first.used].map(([id, record]) => [id, { characters: record.characters } as BuildRecord]));
    const reused = planTools(model, { ...tight, memo: new RecordsMemo(charactersOnly) }, new Diagnostics());
    expect(JSON.stringify(reused)).toBe(JSON.stringify(plain));
  });
});

describe('build keys', () => {
  it('are the JSON text of what a build depends on, the same at every level but for the level', async () => {
    const model = await museum();
    const memo = new RecordsMemo();
    planTools(model, { ...tight, memo }, new Diagnostics());
    const keys = [...memo.used.keys()].map((id) => (JSON.parse(id) as [string, unknown])[0]);
    expect(keys.length).toBeGreaterThan(0);
    for (const key of keys) {
      const parts = JSON.parse(key) as unknown[];
      // Name, label, contents, intent, detail, actions, siblings, header decisions: as JSON.stringify writes them.
      expect(parts).toHaveLength(8);
      expect(JSON.stringify(parts)).toBe(key);
      expect(typeof parts[4]).toBe('number');
    }
  });
});
