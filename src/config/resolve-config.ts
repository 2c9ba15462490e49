import path from 'node:path';
import type { HttpMethod } from '../model/api-model.js';
import type { AddedCredential } from '../model/add-credentials.js';
import type { ConfiguredCredential, UserConfig } from './config-schema.js';
import { megabytes, type GenerateSettings } from './resolve-options.js';

/**
 * Defaults < configuration file < flags. Flags replace a file's value key by key; inside `include`, `exclude` and
 * `headers` they replace one rule and keep the others (`--include-tag x` keeps the file's `include.paths`).
 */
export function mergeConfigs(file: UserConfig, flags: UserConfig): UserConfig {
  const merged: UserConfig = { ...file, ...flags };
  if (file.include || flags.include) merged.include = { ...file.include, ...flags.include };
  if (file.exclude || flags.exclude) merged.exclude = { ...file.exclude, ...flags.exclude };
  if (file.headers || flags.headers) merged.headers = { ...file.headers, ...flags.headers };
  if (file.renameTools || flags.renameTools) merged.renameTools = { ...file.renameTools, ...flags.renameTools };
  return merged;
}

/** Paths in a configuration file are relative to the file's folder (as in tsconfig.json); URLs and `-` stay. */
export function resolveConfigPaths(config: UserConfig, base: string): UserConfig {
  const local = (value: string | undefined) =>
    value === undefined || value === '-' || /^https?:\/\//i.test(value) ? value : path.resolve(base, value);
  return {
    ...config,
    ...(config.spec !== undefined ? { spec: local(config.spec) as string } : {}),
    ...(config.out !== undefined ? { out: local(config.out) as string } : {}),
    ...(config.refRoot !== undefined ? { refRoot: local(config.refRoot) as string } : {}),
    ...(config.icons !== undefined ? { icons: iconPaths(config.icons, base) } : {}),
  };
}

/** Icon file paths relative to the configuration file; `data:` URIs (and URLs, which are refused later) stay. */
function iconPaths(icons: NonNullable<UserConfig['icons']>, base: string): NonNullable<UserConfig['icons']> {
  const local = (value: string) => (/^(data:|https?:\/\/)/i.test(value) ? value : path.resolve(base, value));
  return {
    ...(icons.server !== undefined ? { server: local(icons.server) } : {}),
    ...(icons.tools !== undefined ? { tools: local(icons.tools) } : {}),
    ...(icons.byTool ? { byTool: Object.fromEntries(Object.entries(icons.byTool).map(([name, value]) => [name, local(value)])) } : {}),
  };
}

/** The configuration's shape → the pipeline's. Keys not set stay unset: the pipeline applies the defaults (resolveOptions). */
export function toRunOptions(config: UserConfig & { spec: string }): GenerateSettings {
  const methods = (list: string[] | undefined) => list?.map((method) => method.toLowerCase() as HttpMethod);
  const { include = {}, exclude = {} } = config;
  return {
    spec: config.spec,
    ...(config.out !== undefined ? { out: config.out } : {}),
    ...(config.packageName !== undefined ? { packageName: config.packageName } : {}),
    ...(config.target !== undefined ? { target: config.target } : {}),
    ...(config.deploy !== undefined ? { deploy: config.deploy } : {}),
    ...(config.confirm ? { confirm: config.confirm } : {}),
    ...(config.refRoot !== undefined ? { refRoot: config.refRoot } : {}),
    ...(config.allowRemoteRefs !== undefined ? { allowRemoteRefs: config.allowRemoteRefs } : {}),
    ...(config.maxInputMb !== undefined ? { maxInputBytes: megabytes(config.maxInputMb) } : {}),
    ...(config.validate !== undefined ? { validate: config.validate } : {}),
    ...(config.cache !== undefined ? { cache: config.cache } : {}),
    ...(config.strategy !== undefined ? { strategy: config.strategy } : {}),
    ...(config.maxTools !== undefined ? { maxTools: config.maxTools } : {}),
    ...(config.maxNameLength !== undefined ? { maxNameLength: config.maxNameLength } : {}),
    ...(config.outputSchema !== undefined ? { outputSchema: config.outputSchema } : {}),
    ...(config.surface !== undefined ? { surface: config.surface } : {}),
    budget: {
      ...(config.maxToolTokens !== undefined ? { maxToolTokens: config.maxToolTokens } : {}),
      ...(config.tokensPerOperation !== undefined ? { tokensPerOperation: config.tokensPerOperation } : {}),
      ...(config.maxTotalTokens !== undefined ? { maxTotalTokens: config.maxTotalTokens } : {}),
    },
    ...(config.prefix !== undefined ? { prefix: config.prefix } : {}),
    ...(config.name !== undefined ? { name: config.name } : {}),
    ...(config.credentials ? { credentials: config.credentials.map(addedCredential) } : {}),
    ...(config.sharedCredentials ? { sharedCredentials: config.sharedCredentials } : {}),
    ...(config.envPrefix !== undefined ? { envPrefix: config.envPrefix } : {}),
    ...(config.headers ? { headers: config.headers } : {}),
    ...(config.operations ? { overrides: config.operations } : {}),
    ...(config.renameTools ? { renameTools: config.renameTools } : {}),
    ...(config.icons ? { icons: config.icons } : {}),
    select: {
      ...(include.tags ? { includeTags: include.tags } : {}),
      ...(exclude.tags ? { excludeTags: exclude.tags } : {}),
      ...(include.operations ? { includeOperations: include.operations } : {}),
      ...(exclude.operations ? { excludeOperations: exclude.operations } : {}),
      ...(include.paths ? { includePaths: include.paths } : {}),
      ...(exclude.paths ? { excludePaths: exclude.paths } : {}),
      ...(include.methods ? { includeMethods: methods(include.methods) } : {}),
      ...(exclude.methods ? { excludeMethods: methods(exclude.methods) } : {}),
      ...(exclude.deprecated !== undefined ? { excludeDeprecated: exclude.deprecated } : {}),
    },
  };
}

function addedCredential(credential: ConfiguredCredential): AddedCredential {
  const common = {
    env: credential.env,
    ...(credential.operations ? { operations: credential.operations } : {}),
    ...(credential.description ? { description: credential.description } : {}),
  };
  if (credential.type === 'apiKey') return { type: 'apiKey', in: credential.in ?? 'header', name: credential.name ?? '', ...common };
  return { type: credential.type, ...common };
}
