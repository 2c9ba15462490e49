import type { ToolPlan } from '../plan/tool-plan.js';

/**
 * What the generated README and .env.example say about the per-user upstream modes (`<PREFIX>_UPSTREAM_AUTH`): the
 * user scheme and the defaults its authorization code flow gives the variables. Every field is always present
 * (templates render strictly); empty when the description has nothing to say.
 */
export function userAuthView(plan: ToolPlan) {
  const userAuth = plan.api.userAuth;
  return {
    userScheme: userAuth?.scheme ?? '',
    userAuthorizationUrl: userAuth?.authorizationUrl ?? '',
    userTokenUrl: userAuth?.tokenUrl ?? '',
    userScopes: userAuth?.scopes.join(' ') ?? '',
  };
}
