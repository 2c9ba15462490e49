#!/usr/bin/env node
import { existsSync } from 'node:fs';

// The command runs from dist/, which `npm run build` writes: the packed package ships it, a clone builds it once.
const host = new URL('../dist/bundle/cli-host.js', import.meta.url);
if (!existsSync(host)) {
  process.stderr.write('openapi-to-mcp is not built yet: run `npm run build` in its folder (in a clone: npm ci && npm run build).\n');
  process.exit(2);
}
const { runCliInThread } = await import(host.href);
process.exitCode = await runCliInThread(new URL('../dist/bundle/cli-thread.js', import.meta.url), process.argv.slice(2));
