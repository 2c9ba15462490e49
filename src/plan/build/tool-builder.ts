import type { BuildRecord, BuiltTool, PlanMemo, Siblings, ToolDraft } from '../drafts.js';
import { countToolTokens, TokenEstimate } from '../budget/count-tokens.js';
import type { ToolModel } from '../tool-plan.js';
import { buildTool, type BuildToolContext } from './build-tool.js';
import { listedLength } from './listed-length.js';

/** A variant as the budget search sees it: only its estimated tokens. */
export type EstimatedTool = { tokens: number };

/**
 * A build of the plan: the record of what is known of it (characters; once `exact` has asked, the tool and its exact
 * tokens) and how to build it.
 */
type Build = { record: BuildRecord & { characters: number }; make: () => BuiltTool; made?: BuiltTool };

/**
 * Measures each variant of a tool once and builds the tools the plan keeps. The rounds of the budget search re-form
 * many of the same tools, and the fitting tries a tool at every detail level: a build is a pure function of what
 * buildKey lists and of the plan-wide context given here (title, servers, schemas, options), so its characters are
 * kept (a new estimate needs no new build), and the tool and its exact count once `exact` asks for them.
 *
 * With a memo (the regeneration cache), a variant an earlier run measured from the same content is not built for the
 * search at all: its characters and exact count are the memo's; and a tool the earlier run kept is not built again.
 */
export class ToolBuilder {
  private readonly builds = new Map<string, Build>();

  constructor(
    private readonly context: Omit<BuildToolContext, 'siblings'>,
    private readonly memo?: PlanMemo,
  ) {}

  /** The tool's tokens estimated from its characters: all the search reads of the variants it tries. */
  estimated(draft: ToolDraft, siblings: Siblings, estimate: TokenEstimate): EstimatedTool {
    return { tokens: estimate.fromCharacters(this.build(draft, siblings).record.characters) };
  }

  /** The tool with its exact o200k count. */
  exact(draft: ToolDraft, siblings: Siblings): ToolModel {
    const build = this.build(draft, siblings);
    const tool = (build.record.tool ??= build.made ?? build.make());
    delete build.made;
    build.record.exactTokens ??= countToolTokens(tool);
    return { ...tool, tokens: build.record.exactTokens };
  }

  private build(draft: ToolDraft, siblings: Siblings): Build {
    const key = buildKey(draft, siblings);
    let build = this.builds.get(key);
    if (!build) {
      const make = () => buildTool(draft, { ...this.context, siblings });
      const record =
        this.memo?.buildRecord(
          key,
          draft.actions.map((action) => action.draft.operation),
        ) ?? {};
      build = { record: record as Build['record'], make };
      // The tool built to learn its characters is kept until the plan is made, so that counting the variants the
      // fitting keeps builds none of them again (GitHub: 197 builds fewer).
      if (record.characters === undefined) {
        build.made = make();
        record.characters = listedLength(build.made);
      }
      this.builds.set(key, build);
    }
    return build;
  }
}

/**
 * Everything a build depends on besides the plan-wide context: the draft's name, label, intent, detail level,
 * header decisions and sibling tools, and its actions (each action's draft and summary follow from its name and
 * operation).
 */
function buildKey(draft: ToolDraft, siblings: Siblings): string {
  // The text of JSON.stringify([name, label, contents, intent, detail, actions, siblings, headers]), with the actions'
  // part written once for all the levels a draft is built at (a large tool has a hundred actions).
  const head = JSON.stringify([draft.name, draft.resourceLabel, draft.contents, draft.intent, draft.detail]).slice(0, -1);
  return `${head},${actionsKey(draft.actions)},${JSON.stringify([siblings, draft.headers]).slice(1)}`;
}

const actionsKeys = new WeakMap<ToolDraft['actions'], string>();

function actionsKey(actions: ToolDraft['actions']): string {
  let key = actionsKeys.get(actions);
  if (key === undefined) {
    key = JSON.stringify(actions.map((action) => [action.name, action.draft.operation.key]));
    actionsKeys.set(actions, key);
  }
  return key;
}
