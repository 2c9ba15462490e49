import type { OperationModel, SecurityRequirement, SecuritySchemeModel } from '../../model/api-model.js';

/**
 * How a per-user deployment (`<PREFIX>_UPSTREAM_AUTH=oauth|token-exchange`) may send an operation:
 * - `user`: an alternative of its security names the user scheme, so the signed-in user's own token authorizes it;
 *   the alternative's app keys (an API key that is not in `Authorization`) go along from the environment, since the
 *   description asks for both together and the user's token still says who acts;
 * - `anonymous`: an alternative needs no credential at all, and none is sent;
 * - `operator`: every alternative needs a credential of the deployment instead (Discord's `BotToken`), which would
 *   act as the operator, not as the user: not offered, unless the configuration names it for shared credentials.
 *
 * Only descriptions that name a user scheme have per-user modes (describe/user-auth.ts). A second credential that would also write
 * `Authorization` (HTTP basic or bearer, OAuth, an API key named Authorization) never goes with the user's token: it
 * would replace it, and the request would act as the deployment.
 *
 * The generated server applies the same rule (templates/runtime/credentials/auth.ts) and never sends the environment's
 * credentials for an operation that is not `user` or named for shared credentials.
 */
export type PerUserAccess = { kind: 'user' } | { kind: 'anonymous' } | { kind: 'operator'; schemes: string[] };

export function perUserAccess(
  operation: OperationModel,
  userScheme: string,
  schemes: ReadonlyMap<string, SecuritySchemeModel>,
): PerUserAccess {
  const { security } = operation;
  if (security.length === 0) return { kind: 'anonymous' };
  const companion = (scheme: string) => isCompanion(schemes.get(scheme));
  const userAlternative = (requirement: SecurityRequirement) =>
    requirement.some((entry) => entry.scheme === userScheme) &&
    requirement.every((entry) => entry.scheme === userScheme || companion(entry.scheme));
  if (security.some(userAlternative)) return { kind: 'user' };
  if (security.some((requirement) => requirement.length === 0)) return { kind: 'anonymous' };
  const needed = [...new Set(security.flatMap((requirement) => requirement.map((entry) => entry.scheme)))].sort();
  return { kind: 'operator', schemes: needed };
}

/** An app key that travels beside the user's token: an API key anywhere but the `Authorization` header. */
function isCompanion(scheme: SecuritySchemeModel | undefined): boolean {
  return scheme?.kind === 'apiKey' && !(scheme.in === 'header' && scheme.name.toLowerCase() === 'authorization');
}
