// The search surface's tools: one that finds actions, and one per safety class that calls them, each handled here.

import { searchActions } from './action-search.js';
import { callAction, compileActionValidators } from './call-action.js';
import { surface } from '../search/surface.js';
import type { HandledTool } from './types.js';

export const tools: HandledTool[] = surface.tools.map(({ role, ...tool }) =>
  role === 'search'
    ? { ...tool, handle: async (args, settings) => searchActions(args, surface.names, settings.maxResultTokens) }
    : {
        ...tool,
        handle: (args, settings, signal) => callAction(role, args, surface.names, settings, signal),
        compile: compileActionValidators,
      },
);
