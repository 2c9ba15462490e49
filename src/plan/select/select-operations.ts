import type { OperationModel } from '../../model/api-model.js';
import type { SelectionRules, Selection } from '../drafts.js';

/**
 * Applies include/exclude rules and the `x-mcp` hidden flag. An operation is included when it matches every
 * include rule given (or none is given) and no exclude rule.
 */
export function selectOperations(operations: readonly OperationModel[], rules: SelectionRules): Selection {
  const selected: OperationModel[] = [];
  const excluded: Selection['excluded'] = [];
  const includePaths = rules.includePaths?.map(globToRegExp);
  const excludePaths = rules.excludePaths?.map(globToRegExp);
  const lower = (list: string[] | undefined) => list?.map((item) => item.toLowerCase());
  const includeTags = lower(rules.includeTags);
  const excludeTags = lower(rules.excludeTags);
  for (const operation of operations) {
    const tags = operation.tags.map((tag) => tag.toLowerCase());
    const reason = operation.extension.hidden
      ? 'hidden by x-mcp'
      : includeTags && !tags.some((tag) => includeTags.includes(tag))
        ? 'not in an included tag'
        : excludeTags && tags.some((tag) => excludeTags.includes(tag))
          ? 'in an excluded tag'
          : rules.includeOperations && !rules.includeOperations.includes(operation.id)
            ? 'not an included operation'
            : rules.excludeOperations?.includes(operation.id)
              ? 'an excluded operation'
              : includePaths && !includePaths.some((pattern) => pattern.test(operation.path))
                ? 'not under an included path'
                : excludePaths?.some((pattern) => pattern.test(operation.path))
                  ? 'under an excluded path'
                  : rules.includeMethods && !rules.includeMethods.includes(operation.method)
                    ? 'not an included method'
                    : rules.excludeMethods?.includes(operation.method)
                      ? 'an excluded method'
                      : rules.excludeDeprecated && operation.deprecated
                        ? 'deprecated'
                        : undefined;
    if (reason) excluded.push({ key: operation.key, reason });
    else selected.push(operation);
  }
  return { selected, excluded };
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
