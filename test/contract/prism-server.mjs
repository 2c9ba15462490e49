// Starts Stoplight Prism's mock server the way `prism mock` does, with one difference: Prism does not validate the
// responses it makes up. Those checks say nothing about the requests under test and cost most of Prism's time on
// large, circular descriptions (xero, argo). Requests are validated as by the CLI (parameters, body, security).
// Plain JavaScript: it runs as its own process, outside vitest's TypeScript transform.
// Usage: node prism-server.mjs <description> <port>

import { createRequire } from 'node:module';

const require = createRequire(createRequire(import.meta.url).resolve('@stoplight/prism-cli/package.json'));
const { getHttpOperationsFromSpec } = require('@stoplight/prism-http');
const { createServer } = require('@stoplight/prism-http-server');
const { createLogger } = require('@stoplight/prism-core');

const [document, port] = process.argv.slice(2);
const operations = await getHttpOperationsFromSpec(document);
const server = createServer(operations, {
  cors: false,
  config: {
    validateRequest: true,
    validateResponse: false,
    checkSecurity: true,
    errors: false,
    upstreamProxy: undefined,
    isProxy: false,
    mock: { dynamic: false },
  },
  components: { logger: createLogger('HTTP SERVER', { level: 'error' }, process.stderr) },
});
const address = await server.listen(Number(port), '127.0.0.1');
process.stdout.write(`Prism is listening on ${address}\n`);
