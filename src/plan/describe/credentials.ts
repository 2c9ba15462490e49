import type { OperationModel, SecuritySchemeModel } from '../../model/api-model.js';
import type { CredentialModel } from '../tool-plan.js';
import { envCase } from '../text/words.js';

/**
 * Environment variables for the security schemes the selected operations use. One set per scheme, named
 * `<PREFIX>_<SCHEME>` (plus `_USERNAME`/`_PASSWORD`, `_CLIENT_ID`/`_CLIENT_SECRET` or `_ACCESS_TOKEN`).
 */
export function planCredentials(
  schemes: readonly SecuritySchemeModel[],
  operations: readonly OperationModel[],
  envPrefix: string,
): CredentialModel[] {
  const used = new Set(
    operations.flatMap((operation) => operation.security.flatMap((requirement) => requirement.map((entry) => entry.scheme))),
  );
  const out: CredentialModel[] = [];
  const taken = new Set<string>();
  for (const scheme of schemes) {
    if (!used.has(scheme.key) || scheme.kind === 'unsupported') continue;
    // `SLACK` + `slackAuth` → `SLACK_AUTH`, not `SLACK_SLACK_AUTH`; a configured credential keeps the name it was given.
    const key = envCase(scheme.key) || 'AUTH';
    const name = 'env' in scheme && scheme.env ? scheme.env : key.startsWith(`${envPrefix}_`) ? key : `${envPrefix}_${key}`;
    let base = name;
    for (let index = 2; taken.has(base); index++) base = `${name}_${index}`;
    taken.add(base);
    const description = scheme.description ? { description: scheme.description } : {};
    const format = credentialFormat(scheme.description);
    switch (scheme.kind) {
      case 'apiKey':
        out.push({
          scheme: scheme.key,
          kind: 'apiKey',
          env: [base],
          in: scheme.in,
          name: scheme.name,
          ...description,
          // A header's whole value is the credential: the prefix the description shows is added when missing.
          ...(format ? { format: format.text, ...(scheme.in === 'header' ? { prefix: format.prefix } : {}) } : {}),
        });
        break;
      case 'httpBearer':
        // The server sends `Bearer <value>`: a form that only repeats that (Stripe's `Bearer <api_key>`) would lead a
        // user to set `Bearer sk_…`, sent as `Bearer Bearer sk_…`.
        out.push({
          scheme: scheme.key,
          kind: 'httpBearer',
          env: [base],
          ...description,
          ...(format && format.prefix.trim().toLowerCase() !== 'bearer' ? { format: format.text } : {}),
        });
        break;
      case 'httpBasic':
        out.push({ scheme: scheme.key, kind: 'httpBasic', env: [`${base}_USERNAME`, `${base}_PASSWORD`], ...description });
        break;
      case 'oauth2': {
        const clientCredentials = scheme.flows.find((flow) => flow.flow === 'clientCredentials' && flow.tokenUrl);
        if (clientCredentials?.tokenUrl) {
          out.push({
            scheme: scheme.key,
            kind: 'oauth2ClientCredentials',
            // Client id and secret, or a token obtained elsewhere; the token URL and scopes may be overridden.
            env: [`${base}_CLIENT_ID`, `${base}_CLIENT_SECRET`, `${base}_ACCESS_TOKEN`, `${base}_TOKEN_URL`, `${base}_SCOPES`],
            tokenUrl: clientCredentials.tokenUrl,
            scopes: clientCredentials.scopes,
            ...description,
          });
        } else {
          out.push({ scheme: scheme.key, kind: 'oauth2Token', env: [`${base}_ACCESS_TOKEN`], ...description });
        }
        break;
      }
      case 'openIdConnect':
        out.push({ scheme: scheme.key, kind: 'openIdConnectToken', env: [`${base}_ACCESS_TOKEN`], ...description });
        break;
    }
  }
  return out;
}

/**
 * The value format a scheme's description shows, such as Discord's `Bot <token>`, GitHub's `token <…>` or
 * PagerDuty's `Token token=<API_KEY>`: the text and the literal prefix before the placeholder. Only one such form in
 * the description counts; two different ones are ambiguous and give nothing.
 */
export function credentialFormat(description: string | undefined): { text: string; prefix: string } | undefined {
  if (!description) return undefined;
  const found = new Map<string, { text: string; prefix: string }>();
  // One word and a space (`Bot <token>`), or a word, a space and `name=` (`Token token=<API_KEY>`), before `<…>`.
  for (const match of description
    .slice(0, 2000)
    .matchAll(/(?:^|[\s`'"(:])((?:[A-Za-z][\w-]{0,30} )?[A-Za-z][\w-]{0,30}=|[A-Za-z][\w-]{0,30} )(<[^<>\s`'"]{1,60}>)/g)) {
    const prefix = match[1] as string;
    if (/^(a|an|the|your|with|format|use|as|is|of|to|in|header|value)\s$/i.test(prefix)) continue;
    found.set(prefix, { text: `${prefix}${match[2] as string}`, prefix });
  }
  return found.size === 1 ? [...found.values()][0] : undefined;
}
