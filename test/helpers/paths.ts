import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * The shared corpus of vendor descriptions: `$OPENAPI_TO_MCP_SPECS`, else `../shared/specs` next to this checkout,
 * else the workplace's `/work/shared/specs` (CI clones the repository elsewhere). Missing corpus = failing tests.
 */
function findSpecs(): string {
  const candidates = [process.env['OPENAPI_TO_MCP_SPECS'], path.resolve(REPO_ROOT, '../shared/specs'), '/work/shared/specs'];
  for (const candidate of candidates) if (candidate && existsSync(path.join(candidate, 'MANIFEST.md'))) return candidate;
  throw new Error(
    `The corpus of descriptions was not found (looked in ${candidates.filter(Boolean).join(', ')}); set OPENAPI_TO_MCP_SPECS.`,
  );
}

export const SPECS = findSpecs();
export const TMP = path.join(REPO_ROOT, 'test/.tmp');
export const BIN = path.join(REPO_ROOT, 'bin/openapi-to-mcp.js');

/** Entry files of the vendor corpus in ../shared/specs, with options some of them need. */
export type CorpusEntry = { name: string; entry: string; options?: { refRoot?: string }; operations: number };

export const CORPUS: CorpusEntry[] = [
  { name: 'adyen-management-v3', entry: 'adyen-management-v3.json', operations: 134 },
  { name: 'adyen-terminal-api-v1', entry: 'adyen-terminal-api-v1.yaml', operations: 18 },
  { name: 'argo-workflows', entry: 'argo-workflows.json', operations: 73 },
  { name: 'asana-api', entry: 'asana-api.yaml', operations: 247 },
  { name: 'box-platform', entry: 'box-platform.json', operations: 296 },
  { name: 'oai-callback-example', entry: 'oai-callback-example.yaml', operations: 1 },
  { name: 'oai-link-example', entry: 'oai-link-example.yaml', operations: 6 },
  { name: 'oai-petstore-expanded', entry: 'oai-petstore-expanded.json', operations: 4 },
  {
    name: 'oai-petstore-separate',
    entry: 'oai-petstore-separate/spec/swagger.yaml',
    options: { refRoot: 'oai-petstore-separate' },
    operations: 4,
  },
  { name: 'oai-petstore', entry: 'oai-petstore.yaml', operations: 3 },
  { name: 'oai-tictactoe', entry: 'oai-tictactoe.yaml', operations: 3 },
  { name: 'oai-uber', entry: 'oai-uber.json', operations: 5 },
  { name: 'oai-uspto', entry: 'oai-uspto.yaml', operations: 3 },
  { name: 'oai-webhook-example', entry: 'oai-webhook-example.yaml', operations: 0 },
  { name: 'openai-api', entry: 'openai-api.yaml', operations: 288 },
  { name: 'openfinancebrasil-accounts', entry: 'openfinancebrasil-accounts.yaml', operations: 6 },
  { name: 'pagerduty-rest', entry: 'pagerduty-rest.json', operations: 465 },
  { name: 'pihole-ftl', entry: 'pihole-ftl/main.yaml', operations: 85 },
  { name: 'redocly-museum', entry: 'redocly-museum.yaml', operations: 8 },
  { name: 'sendgrid-v3', entry: 'sendgrid-v3.json', operations: 334 },
  { name: 'slack-web', entry: 'slack-web.json', operations: 174 },
  { name: 'spotify-web-api', entry: 'spotify-web-api.yaml', operations: 96 },
  { name: 'swaggerio-petstore-v3', entry: 'swaggerio-petstore-v3.yaml', operations: 19 },
  { name: 'twilio-api-v2010', entry: 'twilio-api-v2010.yaml', operations: 197 },
  { name: 'xero-accounting', entry: 'xero-accounting.yaml', operations: 235 },
  { name: 'xero-webhooks', entry: 'xero-webhooks.yaml', operations: 0 },
];

export function specPath(entry: string): string {
  return path.join(SPECS, entry);
}
