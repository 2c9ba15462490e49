#!/usr/bin/env node
// Entry point of the generated MCP server: stdio by default, Streamable HTTP with --http.

import { api } from './api.js';
import { registerCredentialSecrets } from './runtime/auth.js';
import { loadEnvFile } from './runtime/env-file.js';
import { setLogLevel } from './runtime/log.js';
import { dropPlaceholders } from './runtime/placeholders.js';
import { checkBaseUrl } from './runtime/request.js';
import { loadSettings, parseFlags, USAGE } from './runtime/settings.js';

try {
  // The project folder's .env (dist/../.env), wherever the client starts the server from.
  loadEnvFile(new URL('../.env', import.meta.url));
  dropPlaceholders();
  const flags = parseFlags(process.argv.slice(2));
  // Asked for, the usage and the version are the output, on stdout; with neither flag stdout carries only MCP.
  if (flags.help) {
    process.stdout.write(`${USAGE}\n`);
  } else if (flags.version) {
    process.stdout.write(`${api.name} ${api.version}\n`);
  } else {
    const settings = loadSettings(flags);
    setLogLevel(settings.logLevel);
    // A base URL whose {variables} cannot be filled would fail every call: stop now, naming the variable.
    checkBaseUrl(settings);
    registerCredentialSecrets();
    // Each transport is loaded only when used: stdio never pays for the HTTP stack, nor HTTP for stdio.
    if (settings.http) {
      // A per-user deployment's shared store must answer before the server takes any request.
      if (settings.upstreamAuth)
        await (await import('./runtime/user-access.js')).checkUserAccess(settings.upstreamAuth);
      const { startHttp } = await import('./runtime/serve-http.js');
      const server = await startHttp(settings);
      const stop = () => server.close(() => process.exit(0));
      process.once('SIGTERM', stop);
      process.once('SIGINT', stop);
    } else {
      const { startStdio } = await import('./runtime/serve-stdio.js');
      startStdio(settings);
    }
  }
} catch (error) {
  process.stderr.write(`${api.name}: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 2;
}
