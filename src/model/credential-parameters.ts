import type { ParameterModel, SecuritySchemeModel } from './api-model.js';

/** Parameter names that carry a credential whatever the description says about them. */
const CREDENTIAL_NAMES = new Set([
  'authorization',
  'proxy-authorization',
  'token',
  'access_token',
  'access-token',
  'accesstoken',
  'auth_token',
  'auth-token',
  'api_key',
  'api-key',
  'apikey',
  'x-api-key',
  'x-auth-token',
  'password',
  'secret',
  'client_secret',
  'private_token',
  'oauth_token',
  'bearer_token',
  'id_token',
  'refresh_token',
  'session_token',
]);

/**
 * Names that carry a credential only when the parameter says so: Google's `key` query parameter is "API key. Your
 * API key identifies your project…", while `key` elsewhere is often data (a storage object's key, a setting).
 */
const AMBIGUOUS_NAMES = new Set(['key', 'sig', 'signature', 'auth']);
const SAYS_CREDENTIAL = /\b(api[ -]?key|access key|secret|credential|password|auth(entication|orization)? token|bearer token|signature)\b/i;

/** Headers the HTTP client sets itself; a parameter for them would only confuse a model. */
const CLIENT_HEADERS = new Set(['accept', 'content-type', 'content-length', 'host', 'connection', 'user-agent', 'cookie']);

/** The apiKey scheme a parameter duplicates (same name and location), if any. */
export function schemeForParameter(parameter: ParameterModel, schemes: readonly SecuritySchemeModel[]): SecuritySchemeModel | undefined {
  return schemes.find(
    (scheme) =>
      scheme.kind === 'apiKey' &&
      scheme.in === parameter.in &&
      (parameter.in === 'header' ? scheme.name.toLowerCase() === parameter.name.toLowerCase() : scheme.name === parameter.name),
  );
}

/** A parameter that carries a credential: by its name, or by an ambiguous name and a description that says so. */
export function isCredentialParameter(parameter: Pick<ParameterModel, 'name' | 'description'>): boolean {
  const name = parameter.name.toLowerCase();
  if (CREDENTIAL_NAMES.has(name)) return true;
  return AMBIGUOUS_NAMES.has(name) && SAYS_CREDENTIAL.test(parameter.description ?? '');
}

export function isClientHeader(parameter: ParameterModel): boolean {
  return parameter.in === 'header' && CLIENT_HEADERS.has(parameter.name.toLowerCase());
}
