// Variables from the `.env` file next to the server (a copy of .env.example), for runs whose MCP client
// configuration does not set them. Variables already in the environment win, so a client's `env` block and
// `docker run --env-file` behave as before.

import { readFileSync } from 'node:fs';
import { parseEnv } from 'node:util';

/** Loads `file` into `env` without overriding; returns the names it set. A missing file sets nothing. */
export function loadEnvFile(file: string | URL, env: NodeJS.ProcessEnv = process.env): string[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const loaded: string[] = [];
  for (const [name, value] of Object.entries(parseEnv(text))) {
    if (value === undefined || env[name] !== undefined) continue;
    env[name] = value;
    loaded.push(name);
  }
  return loaded;
}
