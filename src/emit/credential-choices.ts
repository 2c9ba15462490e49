import type { CredentialModel, ToolPlan } from '../plan/tool-plan.js';

/**
 * Credentials the API takes instead of one another (`security: [basicAuth, bearerAuth]`: Stripe accepts either), as
 * the README, `.env.example`, the bundle manifest and every client set-up present them: one of the alternatives, not
 * all of them. A scheme no operation offers an alternative to stands alone (`alternatives` of one).
 */
export type CredentialChoice = {
  /** Each alternative: the schemes sent together, in the description's order. */
  alternatives: CredentialModel[][];
  /** The alternative the client set-ups fill in: the one with the fewest variables to type (the first of equals). */
  preferred: CredentialModel[];
};

/**
 * Two schemes are alternatives when some operation lists them in different security requirements and no
 * requirement anywhere needs them together; alternatives of alternatives form one choice. A credential the
 * configuration adds travels with every requirement, so it is never an alternative.
 */
export function credentialChoices(plan: ToolPlan): CredentialChoice[] {
  const byScheme = new Map(plan.api.credentials.map((credential) => [credential.scheme, credential]));
  const requirementLists = distinct(
    plan.tools.flatMap((tool) =>
      tool.actions.map((action) =>
        action.route.security.map((requirement) => requirement.map((entry) => entry.scheme).filter((scheme) => byScheme.has(scheme))),
      ),
    ),
  );
  const together = new Set<string>();
  for (const list of requirementLists)
    for (const requirement of list) for (const a of requirement) for (const b of requirement) together.add(pair(a, b));
  const choiceOf = new Map(plan.api.credentials.map((credential) => [credential.scheme, credential.scheme]));
  const root = (scheme: string): string => {
    const parent = choiceOf.get(scheme) ?? scheme;
    return parent === scheme ? scheme : root(parent);
  };
  for (const list of requirementLists)
    for (const [index, first] of list.entries())
      for (const second of list.slice(index + 1))
        for (const a of first) for (const b of second) if (a !== b && !together.has(pair(a, b))) choiceOf.set(root(b), root(a));

  const groups = new Map<string, CredentialModel[]>();
  for (const credential of plan.api.credentials) {
    const key = root(credential.scheme);
    groups.set(key, [...(groups.get(key) ?? []), credential]);
  }
  return [...groups.values()].map((members) => {
    const schemes = new Set(members.map((credential) => credential.scheme));
    const alternatives =
      members.length === 1
        ? [members]
        : distinct(
            requirementLists.flatMap((list) =>
              list
                .map((requirement) => requirement.filter((scheme) => schemes.has(scheme)))
                .filter((requirement) => requirement.length > 0),
            ),
          )
            .filter(
              (requirement, _, all) =>
                !all.some((other) => other.length < requirement.length && other.every((scheme) => requirement.includes(scheme))),
            )
            .map((requirement) => members.filter((credential) => requirement.includes(credential.scheme)));
    const preferred = alternatives.reduce((best, alternative) =>
      promptedVariables(alternative).length < promptedVariables(best).length ? alternative : best,
    );
    return { alternatives, preferred };
  });
}

/** The variables a person fills in for these credentials: the secret, and the user name or client id beside it. */
export function promptedVariables(credentials: readonly CredentialModel[]): string[] {
  return credentials.flatMap((credential) => credential.env.slice(0, promptedCount(credential)));
}

/** Basic takes a user name and a password, client credentials an id and a secret; token URLs and scopes stay optional. */
export function promptedCount(credential: CredentialModel): number {
  return credential.kind === 'httpBasic' || credential.kind === 'oauth2ClientCredentials' ? 2 : 1;
}

function pair(a: string, b: string): string {
  return JSON.stringify(a < b ? [a, b] : [b, a]);
}

function distinct<T>(values: readonly T[]): T[] {
  const seen = new Map(values.map((value) => [JSON.stringify(value), value]));
  return [...seen.values()];
}
