import type { BuiltTool, PlanMemo, Siblings, ToolDraft } from '../drafts.js';
import { countToolTokens, TokenEstimate } from '../budget/count-tokens.js';
import type { ToolModel } from '../tool-plan.js';
import { buildTool, type BuildToolContext } from './build-tool.js';

/** A built tool, with the characters its tokens are estimated from and, once counted, its exact tokens. */
type Built = { tool: BuiltTool; characters: number; exactTokens?: number };

/**
 * Builds the tools of a plan, each at most once. The rounds of the budget search re-form many of the same tools, and
 * the fitting rebuilds a tool at every detail level it tries: a build is a pure function of what buildKey lists and
 * of the plan-wide context given here (title, servers, schemas, options), so it is kept, with its characters (a new
 * estimate needs no new build) and its exact count once one is asked for.
 */
export class ToolBuilder {
  private readonly built = new Map<string, Built>();

  /** `memo`: the regeneration cache's hook, which answers builds and counts an earlier run made from the same content. */
  constructor(
    private readonly context: Omit<BuildToolContext, 'siblings'>,
    private readonly memo?: PlanMemo,
  ) {}

  /** The tool with tokens estimated from its characters. */
  estimated(draft: ToolDraft, siblings: Siblings, estimate: TokenEstimate): ToolModel {
    const built = this.build(draft, siblings);
    return { ...built.tool, tokens: estimate.fromCharacters(built.characters) };
  }

  /** The tool with its exact o200k count. */
  exact(draft: ToolDraft, siblings: Siblings): ToolModel {
    const built = this.build(draft, siblings);
    const tool = built.tool;
    built.exactTokens ??= this.memo ? this.memo.count(tool, () => countToolTokens(tool)) : countToolTokens(tool);
    return { ...built.tool, tokens: built.exactTokens };
  }

  private build(draft: ToolDraft, siblings: Siblings): Built {
    const key = buildKey(draft, siblings);
    let built = this.built.get(key);
    if (!built) {
      const make = () => buildTool(draft, { ...this.context, siblings });
      const operations = draft.actions.map((action) => action.draft.operation);
      const tool = this.memo ? this.memo.build(key, { name: draft.name, operations }, make) : make();
      built = { tool, characters: TokenEstimate.characters(tool) };
      this.built.set(key, built);
    }
    return built;
  }
}

/**
 * Everything a build depends on besides the plan-wide context: the draft's name, label, intent, detail level,
 * header decisions and sibling tools, and its actions (each action's draft and summary follow from its name and
 * operation).
 */
function buildKey(draft: ToolDraft, siblings: Siblings): string {
  return JSON.stringify([
    draft.name,
    draft.resourceLabel,
    draft.contents,
    draft.intent,
    draft.detail,
    draft.actions.map((action) => [action.name, action.draft.operation.key]),
    siblings,
    draft.headers,
  ]);
}
