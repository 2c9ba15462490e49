import type { ToolModel, ToolPlan } from '../plan/tool-plan.js';

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

/**
 * What the generated README says the per-user modes leave out (operations only the deployment's own credentials
 * authorize, by tool) and which actions they send with the shared credentials (`sharedCredentials`). Empty lists
 * when they serve every action as it is.
 */
export function perUserView(plan: ToolPlan) {
  const request = (action: ToolModel['actions'][number]) => `${action.operation.method.toUpperCase()} ${action.operation.path}`;
  const leftOut = plan.tools.flatMap((tool) => {
    const offered = tool.perUser?.actions;
    if (!offered) return [];
    const missing = tool.actions.filter((action) => !offered.includes(action.name));
    if (missing.length === 0) return [];
    const schemes = [
      ...new Set(missing.flatMap((action) => action.route.security.flatMap((requirement) => requirement.map((entry) => entry.scheme)))),
    ]
      .filter((scheme) => scheme !== plan.api.userAuth?.scheme)
      .sort();
    return [
      {
        tool: tool.name,
        actions: offered.length === 0 ? ['all'] : missing.map((action) => action.name),
        schemes: schemes.join(', ') || 'none the user has',
      },
    ];
  });
  const shared = plan.tools.flatMap((tool) =>
    tool.actions
      .filter((action) => action.sharedCredentials)
      .map((action) => ({ tool: tool.name, action: action.name || tool.name, request: request(action) })),
  );
  const actions = plan.tools.reduce((sum, tool) => sum + tool.actions.length, 0);
  const notOffered = plan.tools.reduce((sum, tool) => sum + (tool.perUser ? tool.actions.length - tool.perUser.actions.length : 0), 0);
  return { perUserLeftOut: leftOut, perUserShared: shared, perUserNotOffered: notOffered, perUserActions: actions };
}
