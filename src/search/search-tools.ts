import type { JsonObject } from '../model/api-model.js';
import { countToolTokens } from '../plan/budget/count-tokens.js';
import type { ToolAnnotations } from '../plan/tool-plan.js';
import type { Intent } from '../surface/surface.js';
import { snakeCase } from '../plan/text/words.js';
import type { SurfaceTool } from './search-plan.js';

/** Most results one search returns, and how many without `limit`. */
export const SEARCH_LIMIT = { default: 5, max: 20 };

export type SurfaceToolNames = { search: string } & Record<Intent, string>;

export type SurfaceToolsInput = {
  apiName: string;
  /** Actions per safety class; a class without actions gets no call tool. */
  counts: Record<Intent, number>;
  /** What the API covers, most actions first: its tags or first path segments. */
  areas: string[];
  prefix?: string;
};

/** Names of the surface's tools: fixed, under the same `--prefix` as the static tools. */
export function surfaceToolNames(prefix: string | undefined): SurfaceToolNames {
  const longest = 'call_delete_action'.length + 1;
  let head = prefix ? snakeCase(prefix).slice(0, 64 - longest) : '';
  if (head && !/^[A-Za-z_]/.test(head)) head = `_${head}`.slice(0, 64 - longest);
  const name = (base: string) => (head ? `${head}_${base}` : base);
  return {
    search: name('search_actions'),
    read: name('call_read_action'),
    write: name('call_write_action'),
    delete: name('call_delete_action'),
  };
}

/**
 * The tools `tools/list` shows on the search surface: `search_actions`, then one call tool per safety class that has
 * actions, each annotated for what every action it accepts does, so a host can approve reads and warn before
 * deletions as it would with the static tools.
 */
export function surfaceTools(input: SurfaceToolsInput): SurfaceTool[] {
  const names = surfaceToolNames(input.prefix);
  const intents = (['read', 'write', 'delete'] as const).filter((intent) => input.counts[intent] > 0);
  const callTools = intents.map((intent) => names[intent]);
  const tools: Array<Omit<SurfaceTool, 'tokens'>> = [
    {
      name: names.search,
      title: `Find ${input.apiName} actions`,
      description: searchDescription(input, callTools),
      annotations: { readOnlyHint: true, openWorldHint: false },
      inputSchema: SEARCH_INPUT,
      role: 'search',
    },
    ...intents.map((intent) => ({
      name: names[intent],
      title: CALL_TITLES[intent](input.apiName),
      description: callDescription(intent, input.apiName, names, intents),
      annotations: CALL_ANNOTATIONS[intent],
      inputSchema: callInput(names.search),
      role: intent,
    })),
  ];
  return tools.map((tool) => ({ ...tool, tokens: countToolTokens(tool) }));
}

const SEARCH_INPUT: JsonObject = {
  type: 'object',
  properties: {
    query: {
      type: 'string',
      minLength: 1,
      description: 'What you want to do, in plain words: the thing and what to do with it ("cancel an order of a customer").',
    },
    limit: {
      type: 'integer',
      description: 'How many matches to return.',
      minimum: 1,
      maximum: SEARCH_LIMIT.max,
      default: SEARCH_LIMIT.default,
    },
  },
  required: ['query'],
  additionalProperties: false,
};

function callInput(searchTool: string): JsonObject {
  return {
    type: 'object',
    properties: {
      action: { type: 'string', description: `The action id, as ${searchTool} returned it.` },
      arguments: {
        type: 'object',
        description: "The action's arguments, matching the inputSchema the search returned ({} when it takes none).",
      },
    },
    required: ['action'],
    additionalProperties: false,
  };
}

const CALL_TITLES: Record<Intent, (api: string) => string> = {
  read: (api) => `Read from ${api}`,
  write: (api) => `Create or change in ${api}`,
  delete: (api) => `Delete in ${api}`,
};

const CALL_ANNOTATIONS: Record<Intent, ToolAnnotations> = {
  read: { readOnlyHint: true },
  write: { readOnlyHint: false, destructiveHint: false },
  delete: { readOnlyHint: false, destructiveHint: true },
};

const CLASS_WORDS: Record<Intent, string> = { read: 'reads', write: 'writes', delete: 'deletions' };

function searchDescription(input: SurfaceToolsInput, callTools: string[]): string {
  const total = input.counts.read + input.counts.write + input.counts.delete;
  const classes = (['read', 'write', 'delete'] as const)
    .filter((intent) => input.counts[intent] > 0)
    .map((intent) => `${input.counts[intent].toLocaleString('en-US')} ${CLASS_WORDS[intent]}`)
    .join(', ');
  const areas = input.areas.length > 0 ? ` They cover ${input.areas.join(', ')}.` : '';
  if (total === 0)
    return `Finds the actions of the ${input.apiName} API that do what you describe. This server was generated without any: every search comes back empty. Searching reads nothing from the API and changes nothing.`;
  return [
    `Finds the actions of the ${input.apiName} API that do what you describe: its ${total.toLocaleString('en-US')} actions (${classes}) are reached through this tool and ${listText(callTools)}.${areas}`,
    'Describe the task in plain words: the thing acted on and what to do with it ("list the open orders of a customer", "remove a member from a team"); the API\'s own names for things help, values such as ids do not.',
    `Returns up to \`limit\` matches (default ${SEARCH_LIMIT.default}), best first, each with \`action\` (its id), \`summary\`, \`method\`, \`path\`, \`call\` (the tool that runs it) and \`inputSchema\` (the arguments it takes, with their meaning).`,
    "One operation at other paths (`/me/…` and `/users/{id}/…`) is one match: its `variants` list those actions, each taking the match's arguments with `arguments` added or changed and `without` left out.",
    'Then run the one that fits with its `call` tool: {"action": "<id>", "arguments": {…}}, the arguments matching its inputSchema.',
    'When none fits, search again with other words. Searching reads nothing from the API and changes nothing.',
  ].join(' ');
}

function callDescription(intent: Intent, api: string, names: SurfaceToolNames, intents: Intent[]): string {
  const others = intents.filter((other) => other !== intent).map((other) => `${CLASS_WORDS[other]} to ${names[other]}`);
  const refuses = others.length > 0 ? ` It refuses other actions and names the tool for them (${listText(others)}).` : '';
  const what = {
    read: 'only reads (GET requests and searches); it changes nothing',
    write: 'creates or changes data (not deletions); confirm changes the user did not ask for',
    delete: 'deletes or removes something, which may not be recoverable; confirm with the user first',
  }[intent];
  const returns = {
    read: 'Returns the API\'s answer: JSON as structured content and as text; long lists are concise (response_format "detailed" gives every field) and a note says how to get the next page.',
    write: "Returns the API's answer (JSON as structured content and as text).",
    delete: "Returns the API's answer, often empty on success.",
  }[intent];
  return [
    `Runs one action of the ${api} API that ${what}.`,
    `Find the action with ${names.search}, then call this tool with {"action": "<id>", "arguments": {…}}: the arguments its inputSchema lists, under those exact names.${refuses}`,
    returns,
    'Wrong arguments, an unknown id and errors of the API come back as errors that say what to fix.',
  ].join(' ');
}

function listText(items: string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}
