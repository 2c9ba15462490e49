import type { OperationModel } from '../../model/api-model.js';
import type { SelectionRules, Selection } from '../drafts.js';

/**
 * Applies include/exclude rules and the `x-mcp` hidden flag. An operation is included when it matches every
 * include rule given (or none is given) and no exclude rule.
 */
export function selectOperations(operations: readonly OperationModel[], rules: SelectionRules): Selection {
  const selected: OperationModel[] = [];
  const excluded: Selection['excluded'] = [];
  const exclusions = exclusionRules(rules);
  for (const operation of operations) {
    const tags = operation.tags.map((tag) => tag.toLowerCase());
    const reason = exclusions.find((rule) => rule.applies(operation, tags))?.reason;
    if (reason) excluded.push({ key: operation.key, reason });
    else selected.push(operation);
  }
  return { selected, excluded };
}

type ExclusionRule = { reason: string; applies: (operation: OperationModel, lowerCaseTags: string[]) => boolean };

/** The reasons an operation is left out, in the order they are checked: the first that applies is reported. */
function exclusionRules(rules: SelectionRules): ExclusionRule[] {
  const includePaths = rules.includePaths?.map(globToRegExp);
  const excludePaths = rules.excludePaths?.map(globToRegExp);
  const lower = (list: string[] | undefined) => list?.map((item) => item.toLowerCase());
  const includeTags = lower(rules.includeTags);
  const excludeTags = lower(rules.excludeTags);
  const { includeOperations, excludeOperations, includeMethods, excludeMethods } = rules;
  const candidates: Array<ExclusionRule | false | undefined> = [
    { reason: 'hidden by x-mcp', applies: (operation) => operation.extension.hidden === true },
    includeTags && { reason: 'not in an included tag', applies: (_, tags) => !tags.some((tag) => includeTags.includes(tag)) },
    excludeTags && { reason: 'in an excluded tag', applies: (_, tags) => tags.some((tag) => excludeTags.includes(tag)) },
    includeOperations && { reason: 'not an included operation', applies: (operation) => !includeOperations.includes(operation.id) },
    excludeOperations && { reason: 'an excluded operation', applies: (operation) => excludeOperations.includes(operation.id) },
    includePaths && {
      reason: 'not under an included path',
      applies: (operation) => !includePaths.some((pattern) => pattern.test(operation.path)),
    },
    excludePaths && {
      reason: 'under an excluded path',
      applies: (operation) => excludePaths.some((pattern) => pattern.test(operation.path)),
    },
    includeMethods && { reason: 'not an included method', applies: (operation) => !includeMethods.includes(operation.method) },
    excludeMethods && { reason: 'an excluded method', applies: (operation) => excludeMethods.includes(operation.method) },
    rules.excludeDeprecated && { reason: 'deprecated', applies: (operation) => operation.deprecated === true },
  ];
  return candidates.filter((rule): rule is ExclusionRule => Boolean(rule));
}

/** `/repos/*\/issues/**` → a RegExp on path keys. */
export function globToRegExp(glob: string): RegExp {
  let pattern = '';
  for (let index = 0; index < glob.length; index++) {
    const char = glob[index] as string;
    if (char === '*' && glob[index + 1] === '*') {
      pattern += '.*';
      index++;
    } else if (char === '*') pattern += '[^/]*';
    else if (char === '?') pattern += '[^/]';
    else pattern += char.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${pattern}$`);
}
