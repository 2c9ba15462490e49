// A variable that still holds an unexpanded placeholder is not a value. An MCP Bundle host passes
// `${user_config.api_key}` through unchanged when an optional field was left blank, and a configuration copied from
// a template may carry `${GITHUB_TOKEN}`: sent as a credential it fails in confusing ways, and it is no setting either.
// So is a value that is only an ellipsis (`…`, `...`): what the README's client set-ups hold until the user fills
// them in. Left there beside a filled-in alternative, Basic's `…:…` would otherwise be sent instead of the token.
// Such variables are treated as unset, with one warning naming each.

import { api } from '../api.js';
import { log } from './log.js';

const PLACEHOLDER = /\$\{[^}]*\}|^\s*(?:…|\.\.\.)\s*$/;

/** Removes this server's variables that hold a placeholder (`${…}`, `…`) from `env`; returns their names. */
export function dropPlaceholders(env: Record<string, string | undefined> = process.env): string[] {
  const credentials = new Set(api.credentials.flatMap((credential) => credential.env));
  const dropped: string[] = [];
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    const placeholder = PLACEHOLDER.exec(value)?.[0];
    if (!placeholder || !(credentials.has(name) || name.startsWith(`${api.envPrefix}_`) || name === 'PORT')) continue;
    delete env[name];
    dropped.push(name);
    log('warn', `${name} holds the placeholder ${placeholder}, not a value: it is treated as unset.`);
  }
  return dropped;
}
