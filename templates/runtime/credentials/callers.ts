// Who a call is made for in the per-user upstream modes (`oauth`, `token-exchange`): the subject that signed in, and
// how to get that user's own token for the API. A caller lives for one HTTP request (the server is built per request
// around it), so one user's token can never serve another's call. Rate limits and log lines are keyed by the subject,
// never by a token.

import { SignInError } from '../core/errors.js';
import { RateLimiter } from '../core/rate-limit.js';

export type Caller = {
  /** The user as the sign-in named them (`sub`), for logs and limits. */
  subject: string;
  /** The user's token for the API: never the token the MCP client presented to this server. */
  upstreamToken: () => Promise<string>;
  /** The API refused that token: forget it wherever it was kept for reuse. */
  refused: () => void;
  /** What to tell the user when the API refuses their token. */
  signInAgain: string;
};

/**
 * The two fields of the settings (config/settings.ts) that say whom a call is for: named here, not imported, because
 * the settings name `Caller` and this module must not depend on them in turn.
 */
export type CallerSettings = { upstreamAuth?: object; caller?: Caller };

/** The caller of a request in a per-user mode; undefined in `env` mode, an error when a per-user mode has none. */
export function callerOf(settings: CallerSettings): Caller | undefined {
  if (!settings.upstreamAuth) return undefined;
  // Never fall back to the environment's credentials: that would act as the deployment, not as the user.
  if (!settings.caller) throw new SignInError('No signed-in user is known for this call: sign in again.');
  return settings.caller;
}

/** A subject as it may appear in a log line: printable, short. */
export function subjectLabel(subject: string): string {
  return JSON.stringify(subject.replace(/[^\x20-\x7e]/g, '?').slice(0, 128));
}

const MAX_TRACKED_SUBJECTS = 10_000;

/**
 * One calls-per-minute bucket per user, per process: replicas count separately. The least recently seen users are
 * forgotten past a bound, so memory stays flat however many users come and go (a forgotten user starts full).
 */
export class SubjectRateLimiters {
  private readonly limiters = new Map<string, RateLimiter>();

  constructor(private readonly perMinute: number) {}

  of(subject: string): RateLimiter {
    let limiter = this.limiters.get(subject);
    if (limiter) this.limiters.delete(subject);
    else {
      limiter = new RateLimiter(this.perMinute);
      if (this.limiters.size >= MAX_TRACKED_SUBJECTS) {
        const oldest = this.limiters.keys().next().value;
        if (oldest !== undefined) this.limiters.delete(oldest);
      }
    }
    this.limiters.set(subject, limiter);
    return limiter;
  }
}
