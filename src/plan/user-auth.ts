import type { OperationModel, SecuritySchemeModel } from '../model/api-model.js';
import type { UserAuthModel } from './tool-plan.js';

/**
 * How users sign in to the API, for the generated server's per-user upstream modes (`oauth`, `token-exchange`): the
 * security scheme a user's own token stands for, and the description's OAuth 2.0 authorization code flow. The scheme
 * is the first (by key) the selected operations use of: an OAuth 2.0 scheme with an authorization code flow, then any
 * OAuth 2.0 or OpenID Connect scheme, then an HTTP bearer scheme. The scopes are those the selected operations ask of
 * that scheme, not every scope the flow lists: a sign-in asks for what the served operations need.
 * Undefined when the operations use none of them; the server then sends the user's token with every request.
 */
export function planUserAuth(schemes: readonly SecuritySchemeModel[], operations: readonly OperationModel[]): UserAuthModel | undefined {
  const used = new Set(
    operations.flatMap((operation) => operation.security.flatMap((requirement) => requirement.map((entry) => entry.scheme))),
  );
  const candidates = schemes.filter((scheme) => used.has(scheme.key));
  const scheme =
    candidates.find((candidate) => candidate.kind === 'oauth2' && candidate.flows.some((flow) => flow.flow === 'authorizationCode')) ??
    candidates.find((candidate) => candidate.kind === 'oauth2' || candidate.kind === 'openIdConnect') ??
    candidates.find((candidate) => candidate.kind === 'httpBearer');
  if (!scheme) return undefined;
  const flow = scheme.kind === 'oauth2' ? scheme.flows.find((candidate) => candidate.flow === 'authorizationCode') : undefined;
  const scopes = new Set(
    operations.flatMap((operation) =>
      operation.security.flatMap((requirement) =>
        requirement.filter((entry) => entry.scheme === scheme.key).flatMap((entry) => entry.scopes),
      ),
    ),
  );
  return {
    scheme: scheme.key,
    ...(flow?.authorizationUrl ? { authorizationUrl: flow.authorizationUrl } : {}),
    ...(flow?.tokenUrl ? { tokenUrl: flow.tokenUrl } : {}),
    scopes: [...scopes].sort(),
  };
}
