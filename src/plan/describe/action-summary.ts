import type { OperationModel, SchemaModel } from '../../model/api-model.js';
import { argumentTypes } from '../arguments/argument-types.js';
import { conditionalRequirements, type BodyFieldArgument } from '../arguments/conditional-requirements.js';
import type { ActionDraft, OperationSummary, PlanMemo } from '../drafts.js';
import { cleanText } from '../text/sanitize-text.js';
import { describeResponse } from './describe-response.js';
import { summarize, summaryWords } from './describe-tool.js';

/**
 * What each operation does, needs and returns, by operation key: written once per plan, whichever tool and action
 * name the operation ends up with in a round of the budget search.
 */
export function summarizeOperations(
  operations: readonly OperationModel[],
  drafts: ReadonlyMap<string, ActionDraft>,
  defs: Record<string, SchemaModel>,
  memo?: PlanMemo,
): Map<string, OperationSummary> {
  return new Map(
    operations.map((operation) => {
      const make = () => summarizeOperation(operation, drafts.get(operation.key) as ActionDraft, defs);
      return [operation.key, memo ? memo.operationSummary(operation, make) : make()];
    }),
  );
}

function summarizeOperation(operation: OperationModel, draft: ActionDraft, defs: Record<string, SchemaModel>): OperationSummary {
  const response = describeResponse(operation, draft.arguments, defs);
  const summary = operation.extension.description
    ? cleanText(operation.extension.description, 200).text || summarize(operation)
    : summarize(operation);
  const types = argumentTypes(draft, defs);
  const conditions = draft.body
    ? conditionalRequirements(draft.body.media.schema, defs, bodyFieldArguments(draft), draft.body.required)
    : [];
  return {
    operation,
    summary,
    summaryWords: summaryWords(summary),
    needs: draft.arguments.filter((arg) => arg.required).map((arg) => arg.key),
    returns: response.text,
    ...(response.pagination ? { pagination: response.pagination } : {}),
    ...(types.length > 0 ? { argumentTypes: types } : {}),
    ...(conditions.length > 0 ? { conditions } : {}),
  };
}

/** The fields of a flattened body, each with the argument that carries it. */
function bodyFieldArguments(draft: ActionDraft): BodyFieldArgument[] {
  return draft.arguments.flatMap((argument) => (argument.route.in === 'body' ? [{ name: argument.route.name, arg: argument.key }] : []));
}
