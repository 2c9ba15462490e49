import { Diagnostics, type Diagnostic } from '../../diagnostics/diagnostic.js';
import type { HeaderDecisions, NamedAction, PlanMemo } from '../drafts.js';
import { decideHeaders, type HeaderContext } from './decide-headers.js';

/**
 * Header decisions for the tools of every round of the budget search. A round re-forms most of the tools of the
 * rounds before it (GitHub: 710 drafts in six rounds, 137 distinct), and a tool's decisions follow from its name and
 * its actions (the rest of HeaderContext is the same for the whole plan): each is decided once, with the diagnostics
 * it gave, and those are given again to every round that forms the tool. With a memo that keeps work between runs
 * (a watch's), a tool whose name, actions and operations are as they were is decided as the run before decided it.
 */
export class HeaderDecider {
  private readonly decided = new Map<string, { decisions: HeaderDecisions; diagnostics: Diagnostic[] }>();
  /** What decisions read besides the tool and the named schemas (the memo's context): schemes and header options. */
  private settings: string | undefined;

  constructor(
    private readonly context: Omit<HeaderContext, 'tool' | 'actions' | 'diagnostics'>,
    private readonly memo?: PlanMemo,
  ) {}

  decide(tool: string, actions: NamedAction[], diagnostics: Diagnostics): HeaderDecisions {
    const key = JSON.stringify([tool, actions.map((action) => [action.name, action.draft.operation.key])]);
    let entry = this.decided.get(key);
    if (!entry) {
      const make = () => {
        const own = new Diagnostics();
        return { decisions: decideHeaders({ ...this.context, tool, actions, diagnostics: own }), diagnostics: own.items };
      };
      const operations = actions.map((action) => action.draft.operation);
      const memoKey = () => `${(this.settings ??= JSON.stringify([this.context.securitySchemes, this.context.options]))}${key}`;
      entry = this.memo?.shared ? this.memo.shared('headers', memoKey, operations, make) : make();
      this.decided.set(key, entry);
    }
    for (const item of entry.diagnostics) diagnostics.add(item);
    return entry.decisions;
  }
}
