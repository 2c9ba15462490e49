import type { ParameterModel } from './api-model.js';

/** Headers the HTTP client sets itself, whose value a description may still pin (media type versioning). */
const PINNABLE = new Set(['accept', 'content-type']);

/**
 * Values a description pins for `Accept` and `Content-Type` through header parameters (PagerDuty declares a
 * required `Accept: application/vnd.pagerduty+json;version=2` on every operation). OpenAPI says such parameters are
 * ignored as parameters, so they never become tool arguments, but a value the description fixes (a `const`, a
 * one-value `enum`, or a `default`) is what the API expects, and the generated server sends it.
 */
export function declaredHeaderValues(parameters: readonly ParameterModel[]): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const parameter of parameters) {
    if (parameter.in !== 'header' || !PINNABLE.has(parameter.name.toLowerCase()) || typeof parameter.schema !== 'object') continue;
    const schema = parameter.schema;
    const values = Array.isArray(schema['enum']) ? schema['enum'] : [];
    const value = schema['const'] ?? (values.length === 1 ? values[0] : undefined) ?? schema['default'];
    if (typeof value === 'string' && value.trim() !== '' && !/[\r\n]/.test(value)) out.push([parameter.name, value.trim()]);
  }
  return out;
}
