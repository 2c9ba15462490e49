// The search surface's tools: one that finds actions, and one per safety class that calls them, each handled here.

import { catalog } from '../search/catalog.js';
import { searchActions } from './action-search.js';
import { callAction, compileActionValidators } from './call-action.js';
import { offeredPerUser } from './per-user-tools.js';
import { surface } from '../search/surface.js';
import type { HandledTool } from './types.js';

/** Whether the per-user upstream modes offer any action of a safety class (per-user-tools.ts). */
const offeredOf = (intent: string) =>
  Object.values(catalog).some((entry) => entry.intent === intent && offeredPerUser(entry.tool, entry.action));

export const tools: HandledTool[] = surface.tools.map(({ role, ...tool }) =>
  role === 'search'
    ? {
        ...tool,
        handle: async (args, settings) =>
          searchActions(args, surface.names, settings.maxResultTokens, Boolean(settings.upstreamAuth)),
      }
    : {
        ...tool,
        handle: (args, settings, signal, confirm) => callAction(role, args, surface.names, settings, signal, confirm),
        compile: compileActionValidators,
        ...(offeredOf(role) ? {} : { perUser: false as const }),
      },
);
