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
]);

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

export function isCredentialName(name: string): boolean {
  return CREDENTIAL_NAMES.has(name.toLowerCase());
}

export function isClientHeader(parameter: ParameterModel): boolean {
  return parameter.in === 'header' && CLIENT_HEADERS.has(parameter.name.toLowerCase());
}
