import type { Diagnostics } from './diagnostics/diagnostic.js';
import type { AddedCredential } from './model/add-credentials.js';
import { isHttpToken } from './kernel/http-token.js';
import { isUsableName } from './kernel/names.js';
import { SURFACES } from './search/choose-surface.js';
import type { SurfaceRequest } from './search/search-plan.js';

/** Options a caller (the CLI or the programmatic API) passes that end up in generated files or environment names. */
export type CheckedOptions = {
  envPrefix?: string;
  packageName?: string;
  renameTools?: Record<string, string>;
  maxTools?: number;
  maxNameLength?: number;
  maxInputBytes?: number;
  surface?: SurfaceRequest;
  name?: string;
  credentials?: AddedCredential[];
};

/** Environment variable names a shell and a Dockerfile `ENV` line accept as they are. */
const ENV_PREFIX = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
/** npm package names (lower case, optional scope); they are written into package.json, the README and the Dockerfile. */
const PACKAGE_NAME = /^(@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*$/;

/**
 * Checks options before anything is read: each value is written into generated files unescaped in places (a
 * Dockerfile `ENV` line, a shell example in the README), so only values of the documented shape are accepted.
 */
export function checkOptions(options: CheckedOptions, diagnostics: Diagnostics): boolean {
  const refuse = (option: string, message: string) =>
    diagnostics.error('OTM_CONFIG_INVALID', message, { hint: `Correct ${option}; \`openapi-to-mcp --help\` describes it.` });
  if (options.envPrefix !== undefined && !ENV_PREFIX.test(options.envPrefix))
    refuse('--env-prefix', `--env-prefix ${JSON.stringify(options.envPrefix)} is not an environment variable name (letters, digits, _).`);
  if (options.packageName !== undefined && (!PACKAGE_NAME.test(options.packageName) || options.packageName.length > 214))
    refuse('--package-name', `--package-name ${JSON.stringify(options.packageName)} is not a valid npm package name.`);
  for (const [from, to] of Object.entries(options.renameTools ?? {}))
    if (!isUsableName(to)) refuse('--rename-tool', `--rename-tool ${from}=${to}: ${JSON.stringify(to)} is not a valid tool name.`);
  if (options.maxTools !== undefined && !(Number.isInteger(options.maxTools) && options.maxTools > 0))
    refuse('--max-tools', `--max-tools must be a positive whole number, not ${options.maxTools}.`);
  if (
    options.maxNameLength !== undefined &&
    !(Number.isInteger(options.maxNameLength) && options.maxNameLength >= 16 && options.maxNameLength <= 64)
  )
    refuse('--max-name-length', `--max-name-length must be a whole number from 16 to 64, not ${options.maxNameLength}.`);
  if (options.maxInputBytes !== undefined && !(options.maxInputBytes > 0 && Number.isFinite(options.maxInputBytes)))
    refuse('--max-input-mb', `--max-input-mb must be a positive number.`);
  if (options.surface !== undefined && !SURFACES.includes(options.surface))
    refuse('--surface', `--surface must be one of ${SURFACES.join(', ')}, not ${JSON.stringify(options.surface)}.`);
  if (options.name !== undefined && !/[A-Za-z0-9]/.test(options.name))
    refuse('--name', `--name ${JSON.stringify(options.name)} holds no letter or digit to name the project after.`);
  (options.credentials ?? []).forEach((credential, index) => {
    const where = `credentials[${index}] (--credential)`;
    if (!ENV_PREFIX.test(credential.env))
      refuse(where, `${where}: ${JSON.stringify(credential.env)} is not an environment variable name (letters, digits, _).`);
    if (credential.type === 'apiKey' && !(credential.in === 'query' ? credential.name !== '' : isHttpToken(credential.name)))
      refuse(
        where,
        `${where}: an apiKey needs \`in\` and \`name\`, a valid ${credential.in} name (not ${JSON.stringify(credential.name)}).`,
      );
  });
  return !diagnostics.hasErrors;
}
