import { describe, expect, it } from 'vitest';
import { flagsToConfig, FlagError } from '../../src/cli/options.js';
import { toRunOptions } from '../../src/config/resolve-config.js';
import { Diagnostics } from '../../src/diagnostics/diagnostic.js';
import { addCredentials } from '../../src/model/add-credentials.js';
import { hostSlug, identifyingSlug } from '../../src/model/identify-api.js';
import { runPlan } from '../../src/pipeline.js';
import { credentialFormat } from '../../src/plan/credentials.js';
import { planTools } from '../../src/plan/plan-tools.js';
import { modelOf, openapi } from '../helpers/inline.js';
import { fixtureSpec } from '../helpers/paths.js';

const ok = { 200: { description: 'ok' } };

describe('names when the title names nothing', () => {
  it('come from the server host, x-logo, contact and file name, in that order', async () => {
    expect(hostSlug('{region}.sentry.io')).toBe('sentry');
    expect(hostSlug('api.github.com')).toBe('github');
    expect(hostSlug('developer.example.co.uk')).toBe('example');
    const servers = (url: string) => [{ url, variables: [] }];
    expect(identifyingSlug({}, servers('https://{region}.sentry.io'), undefined)).toBe('sentry');
    expect(identifyingSlug({ 'x-logo': { url: 'https://cdn.acme.io/logo.png' } }, servers('/v1'), undefined)).toBe('acme');
    // Logos served by APIs.guru's cache say nothing about the API.
    expect(
      identifyingSlug(
        { 'x-logo': { url: 'https://api.apis.guru/v2/cache/logo/x.png' }, contact: { email: 'dev@tracker.dev' } },
        [],
        undefined,
      ),
    ).toBe('tracker');
    expect(identifyingSlug({ contact: { name: 'Bugsnag Support' } }, servers('http://localhost:8080'), undefined)).toBe('bugsnag-support');
    expect(identifyingSlug({}, [], '/specs/linear-openapi.yaml')).toBe('linear');
    expect(identifyingSlug({}, [], '/specs/swagger.json')).toBeUndefined();
  });

  it("name Sentry's project after Sentry, and --name wins", async () => {
    const sentry = await runPlan({ spec: fixtureSpec('sentry-shaped.yaml') });
    expect(sentry.plan?.api).toMatchObject({ title: 'API Reference', slug: 'sentry', envPrefix: 'SENTRY' });
    const named = await runPlan({ spec: fixtureSpec('sentry-shaped.yaml'), name: 'Sentry SaaS' });
    expect(named.plan?.api).toMatchObject({ slug: 'sentry-saas', envPrefix: 'SENTRY_SAAS' });
    expect(toRunOptions({ spec: 'x.yaml', name: 'Acme' }).name).toBe('Acme');
    expect(flagsToConfig({ name: 'Acme' }, '/').name).toBe('Acme');
  });
});

describe('credential formats', () => {
  it('are read from the scheme description when it shows exactly one', () => {
    expect(credentialFormat('The API Key with format `Token token=<API_KEY>`')).toEqual({
      text: 'Token token=<API_KEY>',
      prefix: 'Token token=',
    });
    expect(credentialFormat('Send `Bot <token>` in the Authorization header.')).toEqual({ text: 'Bot <token>', prefix: 'Bot ' });
    expect(credentialFormat('Use token <your-token>.')).toEqual({ text: 'token <your-token>', prefix: 'token ' });
    expect(credentialFormat('Either `Bot <token>` or `Bearer <token>`.')).toBeUndefined();
    expect(credentialFormat('the <token> value')).toBeUndefined();
    expect(credentialFormat('Bearer token authentication')).toBeUndefined();
  });

  it('make a header credential carry its prefix; other placements only document it', async () => {
    const schemes = {
      bot: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'Use `Bot <token>`.' },
      query: { type: 'apiKey', in: 'query', name: 'key', description: 'Use `key <value>`.' },
    };
    const { model, diagnostics } = await modelOf(
      openapi({ '/a': { get: { security: [{ bot: [] }, { query: [] }], responses: ok } } }, { components: { securitySchemes: schemes } }),
    );
    const plan = planTools(model, {}, diagnostics);
    expect(plan.api.credentials.map(({ scheme, format, prefix }) => ({ scheme, format, prefix }))).toEqual([
      { scheme: 'bot', format: 'Bot <token>', prefix: 'Bot ' },
      { scheme: 'query', format: 'key <value>', prefix: undefined },
    ]);
  });
});

describe('credentials the description does not declare', () => {
  it('are added to every operation or the ones named, sent with what the description requires', async () => {
    const { model } = await modelOf(
      openapi(
        {
          '/open': { get: { operationId: 'open', responses: ok } },
          '/keyed': { get: { operationId: 'keyed', security: [{ key: [] }], responses: ok } },
        },
        { components: { securitySchemes: { key: { type: 'apiKey', in: 'header', name: 'X-Key' } } } },
      ),
    );
    const diagnostics = new Diagnostics();
    const added = addCredentials(model, [{ type: 'bearer', env: 'ACME_TOKEN' }], diagnostics);
    const security = Object.fromEntries(
      added.operations.map((operation) => [operation.id, operation.security.map((r) => r.map((e) => e.scheme))]),
    );
    expect(security).toEqual({ open: [['acme_token']], keyed: [['key', 'acme_token'], ['acme_token'], ['key']] });
    const plan = planTools(added, {}, diagnostics);
    expect(plan.api.credentials.find((credential) => credential.scheme === 'acme_token')).toMatchObject({
      kind: 'httpBearer',
      env: ['ACME_TOKEN'],
    });

    const some = addCredentials(model, [{ type: 'basic', env: 'ACME', operations: ['GET /open', 'nope'] }], diagnostics);
    expect(some.operations.map((operation) => operation.security.length)).toEqual([1, 1]);
    expect(planTools(some, {}, new Diagnostics()).api.credentials.find((c) => c.scheme === 'acme')?.env).toEqual([
      'ACME_USERNAME',
      'ACME_PASSWORD',
    ]);
    expect(diagnostics.warnings.map((warning) => warning.message)).toEqual(['credentials[0].operations names no operation: "nope".']);
  });

  it('come from --credential flags and the configuration, and bad ones are refused', async () => {
    expect(
      flagsToConfig({ credential: ['bearer=GITHUB_TOKEN', 'header:X-Api-Key=ACME_KEY@getThing,GET /x', 'basic=ACME'] }, '/').credentials,
    ).toEqual([
      { type: 'bearer', env: 'GITHUB_TOKEN' },
      { type: 'apiKey', in: 'header', name: 'X-Api-Key', env: 'ACME_KEY', operations: ['getThing', 'GET /x'] },
      { type: 'basic', env: 'ACME' },
    ]);
    for (const bad of ['bearer', 'header=KEY', 'bearer:X=KEY', 'digest=KEY', 'bearer=1KEY'])
      expect(() => flagsToConfig({ credential: [bad] }, '/')).toThrow(FlagError);
    const refused = await runPlan({
      spec: fixtureSpec('oai-petstore.yaml'),
      credentials: [{ type: 'apiKey', in: 'header', name: 'Bad Header', env: 'K' }],
    });
    expect(refused.ok).toBe(false);
    expect(refused.diagnostics[0]?.message).toContain('an apiKey needs `in` and `name`');
  });

  it("keep a credential parameter on every operation that declares it (GitHub's package-restore token)", async () => {
    const token = { name: 'token', in: 'query', schema: { type: 'string' } };
    const { model } = await modelOf(
      openapi({
        '/orgs/{org}/restore': {
          post: {
            operationId: 'restoreForOrg',
            parameters: [{ name: 'org', in: 'path', required: true, schema: { type: 'string' } }, token],
            responses: ok,
          },
        },
        '/user/restore': { post: { operationId: 'restoreForUser', parameters: [token], responses: ok } },
      }),
    );
    for (const operation of model.operations) {
      expect(operation.parameters.map((parameter) => parameter.name)).not.toContain('token');
      expect(operation.security, operation.id).toEqual([[{ scheme: 'token_query', scopes: [] }]]);
    }
  });
});
