// Structural figures of one tool plan (`plan --json`), the ones issue 28 set as the bar for descriptions nobody tuned
// the planner on. Each is computed from the plan alone, by rules simple enough to check by hand:
//
//   honest name      the tool's name words (less the prefix and the intent words) all occur among the words of the
//                    static path segments of at least 80% of its operations (case-insensitive; snake, kebab, dot and
//                    camel case split; singular = plural). Where every call goes to one URL and the path key names
//                    the operation in a literal query or fragment (AWS: `/#Action=DescribeClusters`,
//                    `/#X-Amz-Target=Service.AddTags`), that name is the path's word; where a path names only its
//                    version (Google: `/v1/{+name}:cancel`), the dotted operationId's parts between service and method
//                    are (`aiplatform.projects.locations.datasets.get`)
//   resource paths   distinct resource paths among a tool's operations: the static segments of the path (no
//                    parameters), so `/repos/{o}/{r}/labels` and `/repos/{o}/{r}/labels/{name}` are one
//   leading paths    distinct resource paths cut one segment below the segments all of the tool's paths share: the
//                    resources a tool spans side by side (`repos_write` over labels, deployments, topics … spans 46)
//   repeated words   a name word that occurs twice (`sage_sage_voice_write`)
//   sentences        sentences of the description's prose, the action list left out (a line `- …` is an action)

export const INTENT_WORDS = new Set(
  'read write delete create update get list search fetch find query change set add put post patch remove destroy and'.split(' '),
);
const GENERIC_API_WORDS = new Set('api apis rest web http platform service services openapi the of for and beta v'.split(' '));
export const HONEST_SHARE = 0.8;
export const NAME_LIMIT = 40;

export function words(text) {
  return text
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean)
    .map(singular);
}

function singular(word) {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 4 && /(ss|x|ch|sh)es$/.test(word)) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

const RPC_ACTION = /[?#&](?:(?:action|operation|method|op)=|x-amz-target=[A-Za-z0-9_]*\.)([A-Za-z][A-Za-z0-9]*)/i;
const VERSION = /^(v\d+([._]\d+)*[a-z]*|\d{4}[-_]\d{2}[-_]\d{2}|\d+(\.\d+)*|api|rest|latest)$/i;

function pathWords(operation) {
  const action = RPC_ACTION.exec(operation.path)?.[1] ?? '';
  const named = staticSegments(operation)
    .map((segment) => segment.replace(/\{[^}]*\}/g, '').replace(/:[A-Za-z][\w-]*$/, ''))
    .filter(Boolean);
  const dotted = (operation.operationId ?? '').split('.');
  const fromId = named.every((segment) => VERSION.test(segment)) && dotted.length >= 3 ? dotted.slice(1, -1).join(' ') : '';
  const path = operation.path
    .replace(/[?#].*$/, '')
    .split('/')
    .join(' ');
  return new Set(words(`${path} ${action} ${fromId}`));
}

/** The words of a tool's name a reader takes for its resource: not the prefix, the intent or a number. */
export function nameWords(name, prefix) {
  const stripped = prefix && name.startsWith(`${prefix}_`) ? name.slice(prefix.length + 1) : name;
  return words(stripped).filter((word) => !INTENT_WORDS.has(word) && !/^\d+$/.test(word));
}

export function isHonestName(tool, prefix) {
  const named = nameWords(tool.name, prefix);
  const sets = tool.operations.map(pathWords);
  const carried = (word) => sets.filter((set) => set.has(word)).length >= HONEST_SHARE * sets.length;
  return named.length > 0 && named.every(carried);
}

export function resourcePathsOf(tool) {
  return new Set(tool.operations.map((operation) => staticSegments(operation).join('/'))).size;
}

function staticSegments(operation) {
  return (operation.path.split(/[?#]/)[0] ?? '').split('/').filter((segment) => segment && !/^\{[^}]*\}$/.test(segment));
}

export function leadingPathsOf(tool) {
  const lists = tool.operations.map(staticSegments);
  const first = lists[0] ?? [];
  let shared = 0;
  while (shared < first.length && lists.every((list) => list[shared] === first[shared])) shared++;
  return new Set(lists.map((list) => list.slice(0, shared + 1).join('/'))).size;
}

export const BRANCH_CAP = 20;

export function repeatedWord(name) {
  const parts = name
    .toLowerCase()
    .split(/[_\-.]+/)
    .filter(Boolean);
  return parts.find((part, index) => parts.indexOf(part) !== index);
}

/** Sentences of the prose of a description: action lines (`- …`) and the `Actions…:` heading are not prose. */
export function sentenceCount(description) {
  const prose = description
    .split('\n')
    .filter((line) => !/^\s*-\s/.test(line) && !/^Actions\b.*:$/.test(line.trim()))
    .join(' ');
  return prose
    .split(/(?<=[.!?])\s+(?=[A-Z(`"'0-9])/)
    .map((part) => part.trim())
    .filter((part) => /[A-Za-z]/.test(part) && /[.!?]$/.test(part)).length;
}

/** Every figure of one plan; `perOperationTokens` (the tokens of one tool per operation) when it was planned too. */
export function surfaceMetrics(plan, { prefix, perOperationTokens } = {}) {
  const apiWords = new Set(
    [...words(plan.api?.slug ?? ''), ...words(plan.api?.title ?? '')].filter(
      (word) => !GENERIC_API_WORDS.has(word) && !/^v?\d+$/.test(word),
    ),
  );
  const tools = plan.tools;
  const honest = tools.filter((tool) => isHonestName(tool, prefix));
  const dishonest = tools.filter((tool) => !isHonestName(tool, prefix)).map((tool) => tool.name);
  const spans = tools
    .map((tool) => ({ name: tool.name, paths: resourcePathsOf(tool), branches: leadingPathsOf(tool) }))
    .sort((a, b) => b.branches - a.branches || b.paths - a.paths);
  const long = tools.filter((tool) => tool.name.length > NAME_LIMIT).map((tool) => tool.name);
  const repeats = tools.filter((tool) => repeatedWord(tool.name)).map((tool) => tool.name);
  const short = tools.filter((tool) => sentenceCount(tool.description) < 3).map((tool) => tool.name);
  const afterApi = tools
    .filter((tool) => {
      const sets = tool.operations.map(pathWords);
      return nameWords(tool.name, prefix).some(
        (word) => apiWords.has(word) && sets.filter((set) => set.has(word)).length < HONEST_SHARE * sets.length,
      );
    })
    .map((tool) => tool.name);
  const warnings = (plan.warnings ?? []).map((warning) => warning.code);
  return {
    operations: plan.totals.operations,
    tools: tools.length,
    tokens: plan.totals.tokens,
    surface: plan.surface ?? 'tools',
    honestNames: honest.length,
    honestShare: tools.length ? honest.length / tools.length : 1,
    dishonest,
    maxResourcePaths: Math.max(0, ...spans.map((span) => span.paths)),
    maxBranches: spans[0]?.branches ?? 0,
    overBranchCap: spans.filter((span) => span.branches > BRANCH_CAP).length,
    widest: spans.slice(0, 3),
    longNames: long,
    longestName: Math.max(0, ...tools.map((tool) => tool.name.length)),
    repeatedWords: repeats,
    underThreeSentences: short,
    namedAfterApi: afterApi,
    ...(perOperationTokens !== undefined
      ? { perOperationTokens, tokenShare: perOperationTokens ? plan.totals.tokens / perOperationTokens : 0 }
      : {}),
    warnings: [...new Set(warnings)].sort(),
  };
}
