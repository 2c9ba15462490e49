import type { CredentialModel, ToolPlan } from '../plan/tool-plan.js';
import { credentialChoices, promptedVariables, type CredentialChoice } from './credential-choices.js';

/** One credential's entry in the README's table and in `.env.example`. */
export type CredentialEntry = {
  /** `scheme (kind): description`, from the description: the templates escape it. */
  title: string;
  env: string[];
  format?: string;
  /** In a choice: the alternatives' numbers this credential belongs to (`1`, or `1 and 3`). */
  alternative?: string;
  /** In a choice: how many alternatives there are. */
  alternatives?: number;
  /** In a choice, on its first credential: `.env.example` says there what the choice is. */
  choiceStart?: true;
  /** In a choice: the other alternatives' variables, as Markdown code (`` `A` and `B`, or `C` ``). */
  insteadOf?: string;
};

/**
 * What the templates say about credentials: each one in the order of its choice, alternatives marked as such, and
 * the variables the client set-ups fill in (one alternative of each choice, the one with the fewest to type).
 * Every text made here holds only variable names and this generator's own words; a scheme's name and description
 * from the API description stay in `title`, which the templates escape.
 */
export function credentialView(plan: ToolPlan): {
  credentials: CredentialEntry[];
  credentialChoices: Array<{ text: string }>;
  clientEnvList: string[];
  clientChoiceNote: string;
} {
  const choices = credentialChoices(plan);
  const credentials: CredentialEntry[] = [];
  const oneOf = choices.filter((choice) => choice.alternatives.length > 1);
  for (const choice of choices) {
    const members = [...new Set(choice.alternatives.flat())];
    for (const [index, credential] of members.entries()) {
      const entry: CredentialEntry = {
        title: `${credential.scheme} (${credentialKindLabel(credential.kind)})${credential.description ? `: ${credential.description}` : ''}`,
        env: credential.env,
        ...(credential.format ? { format: formatNote(credential.format, credential.prefix) } : {}),
      };
      if (choice.alternatives.length > 1) {
        const numbers = choice.alternatives.flatMap((alternative, at) => (alternative.includes(credential) ? [at + 1] : []));
        entry.alternative = numbers.join(' and ');
        entry.alternatives = choice.alternatives.length;
        entry.insteadOf = choice.alternatives
          .filter((alternative) => !alternative.includes(credential))
          .map(variablesText)
          .join(', or ');
        if (index === 0) entry.choiceStart = true;
      }
      credentials.push(entry);
    }
  }
  const clientEnvList = choices.flatMap((choice) => promptedVariables(choice.preferred));
  const preferred = oneOf.map((choice) => variablesText(choice.preferred));
  const clientChoiceNote =
    oneOf.length === 1 && oneOf[0]
      ? `The set-ups below fill in ${preferred[0]}. ${choiceText(oneOf[0])} To use another one, put its variables in place of those.`
      : oneOf.length > 1
        ? `The set-ups below fill in one alternative of each choice listed under Configuration (${preferred.join('; ')}); to use another, put its variables in place of those.`
        : '';
  return { credentials, credentialChoices: oneOf.map((choice) => ({ text: choiceText(choice) })), clientEnvList, clientChoiceNote };
}

/** `Where the API asks for them, it accepts any one of these 2 credentials, so set one of them, not all: A and B (…), or C (…).` */
function choiceText(choice: CredentialChoice): string {
  const alternatives = choice.alternatives.map(
    (alternative) =>
      `${variablesText(alternative)} (${alternative.map((credential) => credentialKindLabel(credential.kind)).join(' with ')})`,
  );
  return `Where the API asks for them, it accepts any one of these ${choice.alternatives.length} credentials, so set one of them, not all: ${alternatives.join(', or ')}.`;
}

/** The variables a person fills in for an alternative, as Markdown code: `` `A` and `B` ``. */
function variablesText(alternative: readonly CredentialModel[]): string {
  return promptedVariables(alternative)
    .map((name) => `\`${name}\``)
    .join(' and ');
}

/** How a credential's value looks, and whether the server completes it. */
function formatNote(format: string, prefix: string | undefined): string {
  return prefix
    ? `The value has the form ${format}; the server adds ${JSON.stringify(prefix)} when the value does not start with it.`
    : `The value has the form ${format} (as the description shows it).`;
}

export function credentialKindLabel(kind: string): string {
  return (
    {
      apiKey: 'API key',
      httpBearer: 'bearer token',
      httpBasic: 'user name and password',
      oauth2ClientCredentials: 'OAuth 2.0 client credentials',
      oauth2Token: 'OAuth 2.0 access token',
      openIdConnectToken: 'OpenID Connect access token',
    }[kind] ?? kind
  );
}
