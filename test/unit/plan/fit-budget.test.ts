import { describe, expect, it } from 'vitest';
import { LEAN_DETAIL } from '../../../src/plan/arguments/detail-levels.js';
import { fitBudget } from '../../../src/plan/budget/fit-budget.js';
import type { Budget, ToolDraft } from '../../../src/plan/drafts.js';

/** Drafts named after their index, at the richest level; only the name and level matter to a render by table. */
function drafts(count: number): ToolDraft[] {
  return Array.from({ length: count }, (_, index) => ({ name: `t${index}`, detail: 0 }) as unknown as ToolDraft);
}

/** Renders a draft from a table of tokens per level, and records which (tool, level) it was asked for. */
function tableRender(sizes: number[][]) {
  const asked: string[] = [];
  const render = (draft: ToolDraft) => {
    asked.push(`${draft.name}@${draft.detail}`);
    return { tokens: sizes[Number(draft.name.slice(1))]![draft.detail]! };
  };
  return { render, asked };
}

const budget = (maxTotalTokens: number, maxToolTokens = 10_000): Budget => ({ maxTools: 100, maxToolTokens, maxTotalTokens });
const levelsOf = (fitted: { drafts: ToolDraft[] }) => fitted.drafts.map((draft) => draft.detail);

describe('fitBudget', () => {
  // Two tools whose sizes shrink level by level, except that collapsing (levels 5 and 7) can cost more.
  const sizes = [
    [1000, 900, 800, 700, 600, 650, 500, 520],
    [400, 380, 360, 340, 320, 300, 280, 260],
  ];

  it('keeps every tool at its richest level when the list fits there, building nothing else', () => {
    const { render, asked } = tableRender(sizes);
    const fitted = fitBudget(drafts(2), render, budget(1400));
    expect(levelsOf(fitted)).toEqual([0, 0]);
    expect(fitted.overBudget).toBe(false);
    expect(asked).toEqual(['t0@0', 't1@0']);
  });

  it('trims the largest tool first, a level at a time, skipping levels that are not smaller', () => {
    const { render } = tableRender(sizes);
    // 1,400 → the first tool steps down to 600 (level 4), where the list (1,000) fits.
    const fitted = fitBudget(drafts(2), render, budget(1000));
    expect(levelsOf(fitted)).toEqual([4, 0]);
    expect(fitted.tools.map((tool) => tool.tokens)).toEqual([600, 400]);
    expect(fitted.overBudget).toBe(false);
  });

  it('puts every tool at its floor when even the floors miss, whether it walked there or measured them first', () => {
    // Just over the list's budget: the tools are walked down level by level before the floors decide.
    const walked = tableRender(sizes);
    const slightly = fitBudget(drafts(2), walked.render, budget(700));
    // Far over it: the floors are measured first, and the rich levels between are never built.
    const measured = tableRender(sizes);
    const far = fitBudget(drafts(2), measured.render, budget(400));
    for (const fitted of [slightly, far]) {
      // The first tool's floor is level 6 (500: level 7 costs more); the second's is level 7.
      expect(levelsOf(fitted)).toEqual([6, 7]);
      expect(fitted.overBudget).toBe(true);
    }
    expect(walked.asked).toContain('t0@1');
    const richButLean = (asked: string) => Number(asked.split('@')[1]) > 0 && Number(asked.split('@')[1]) < LEAN_DETAIL;
    expect(measured.asked.filter(richButLean)).toEqual([]);
  });

  it('gives a tool its level within the per-tool budget as its floor when no lean level is smaller', () => {
    // The lean levels of this tool all cost more than level 2, where the per-tool budget puts it.
    const stubborn = [[1000, 950, 500, 600, 700, 700, 700, 700]];
    const { render } = tableRender(stubborn);
    const fitted = fitBudget(drafts(1), render, budget(100, 550));
    expect(levelsOf(fitted)).toEqual([2]);
    expect(fitted.overBudget).toBe(true);
  });

  it('gives a list of too many tools its lean floors without building its rich levels, when those floors miss', () => {
    const { render, asked } = tableRender(sizes);
    const fitted = fitBudget(drafts(2), render, budget(700), true);
    expect(levelsOf(fitted)).toEqual([6, 7]);
    expect(fitted.overBudget).toBe(true);
    expect(asked.filter((entry) => Number(entry.split('@')[1]) < LEAN_DETAIL)).toEqual([]);
    // Lean floors that fit the tokens: the list is fitted as any other, from its richest levels.
    const roomy = tableRender(sizes);
    expect(levelsOf(fitBudget(drafts(2), roomy.render, budget(1400), true))).toEqual([0, 0]);
    expect(roomy.asked).toContain('t0@0');
  });

  it('chooses the richer of two equal floors', () => {
    const tied = [[900, 800, 700, 600, 300, 300, 300, 300]];
    const { render } = tableRender(tied);
    expect(levelsOf(fitBudget(drafts(1), render, budget(100)))).toEqual([LEAN_DETAIL]);
  });
});
