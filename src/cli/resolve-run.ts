import path from 'node:path';
import type { UserConfig } from '../config/config-schema.js';
import { CONFIG_SCHEMA } from '../config/config-schema.js';
import { findConfigFile, loadConfigFile } from '../config/load-config.js';
import { mergeConfigs, resolveConfigPaths, toRunOptions } from '../config/resolve-config.js';
import { validateConfig } from '../config/validate-config.js';
import { Diagnostics } from '../diagnostics/diagnostic.js';
import type { GenerateRunOptions } from '../pipeline.js';
import { FLAG_OF, FlagError, flagsToConfig, type ParsedFlags } from './options.js';

export type ResolvedRun = {
  /** Pipeline options without the spec, which `diff` supplies twice. */
  options: Omit<GenerateRunOptions, 'spec'> & { spec?: string };
  quiet: boolean;
  verbose: boolean;
  /** The configuration file used, relative to the working directory. */
  configFile?: string;
  /** Problems with the configuration or the flags; when one is an error, nothing runs. */
  diagnostics: Diagnostics;
};

/**
 * Flags + the configuration file (given with --config or found in the working directory) → pipeline options.
 * Flag values are checked against the same schema as the file, so `--max-tools -3` and `maxTools: -3` get the same
 * message, each naming where the value came from.
 */
export async function resolveRun(flags: ParsedFlags, cwd: string): Promise<ResolvedRun> {
  const diagnostics = new Diagnostics();
  const fromFlags = flagsToConfig(flags, cwd);
  for (const issue of validateConfig(fromFlags, CONFIG_SCHEMA)) {
    const key = issue.path.filter((token) => typeof token === 'string').join('.');
    const flag = FLAG_OF[key] ?? FLAG_OF[key.split('.')[0] ?? ''] ?? key;
    diagnostics.error('OTM_CONFIG_INVALID', `${flag}: ${issue.message.replace(/^\S+ /, 'the value ')}`, {
      ...(issue.hint ? { hint: issue.hint } : {}),
    });
  }
  const file = await findConfigFile(cwd, flags.config, diagnostics);
  let fromFile: UserConfig = {};
  let configFile: string | undefined;
  if (file && !diagnostics.hasErrors) {
    const loaded = await loadConfigFile(file, cwd, diagnostics);
    if (loaded) {
      fromFile = resolveConfigPaths(loaded.config, path.dirname(loaded.file));
      configFile = path.relative(cwd, loaded.file) || loaded.file;
    }
  }
  const merged = mergeConfigs(fromFile, fromFlags);
  const options = toRunOptions({ ...merged, spec: merged.spec ?? '' });
  const { spec, ...rest } = options;
  return {
    options: {
      ...rest,
      ...(merged.spec !== undefined ? { spec } : {}),
      ...(configFile && (merged.operations || merged.icons) ? { overridesFile: configFile } : {}),
    },
    quiet: merged.quiet ?? false,
    verbose: merged.verbose ?? false,
    ...(configFile ? { configFile } : {}),
    diagnostics,
  };
}

export { FlagError };
