// A tool call once its action is picked and its arguments are checked, before anything is sent: what call-tool.ts
// hands on, and what operation-status.ts makes of a status follow-up. Apart from both, since call-tool.ts imports
// operation-status.ts.

import type { ActionRoute } from '../core/types.js';

export type CheckedCall =
  | {
      ok: true;
      action: string;
      route: ActionRoute;
      multi: boolean;
      /** The arguments as the request sends them (check-arguments.ts, sentArguments). */
      args: Record<string, unknown>;
    }
  | { ok: false; problem: string };
