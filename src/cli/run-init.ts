import { access, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { CONFIG_FILE_NAMES } from '../config/load-config.js';
import { renderTemplate } from '../emit/templates.js';
import { jsonLiteral } from '../emit/text-safety.js';
import { PACKAGE_NAME, RUN_COMMAND } from '../version.js';
import { EXIT, UsageError, type CliIo } from './io.js';
import type { Colors } from './reporter.js';

export type InitFlags = { spec?: string; out?: string; format: 'yaml' | 'json'; force: boolean; json: boolean };

/** Where editors find the schema once the package is installed in the project. */
export const SCHEMA_PATH = `./node_modules/${PACKAGE_NAME}/openapi-to-mcp.config.schema.json`;

/** Descriptions commonly found at a project's root, offered as the starter's `spec` when none is given. */
const USUAL_SPECS = ['openapi.yaml', 'openapi.yml', 'openapi.json', 'swagger.yaml', 'swagger.yml', 'swagger.json'];

/**
 * `openapi-to-mcp init`: writes a starter configuration in the working directory. YAML (the default) lists every
 * option with a comment and its default, commented out; JSON cannot hold comments, so it carries `$schema` for the
 * editor to explain the options instead.
 */
export async function runInitCommand(flags: InitFlags, io: CliIo, colors: Colors): Promise<number> {
  const file = path.join(io.cwd, flags.format === 'json' ? 'openapi-to-mcp.config.json' : 'openapi-to-mcp.config.yaml');
  const existing = [];
  for (const name of CONFIG_FILE_NAMES) if (await exists(path.join(io.cwd, name))) existing.push(name);
  if (existing.length > 0 && !flags.force)
    throw new UsageError(`${existing.join(' and ')} already exists; pass --force to replace ${existing.length === 1 ? 'it' : 'them'}.`);
  const spec = flags.spec ?? (await firstExisting(io.cwd, USUAL_SPECS)) ?? 'openapi.yaml';
  const content =
    flags.format === 'json'
      ? `${jsonLiteral({ $schema: SCHEMA_PATH, spec, ...(flags.out ? { out: flags.out } : {}) })}\n`
      : renderTemplate('config/openapi-to-mcp.config.yaml.hbs', { spec, out: flags.out ?? '' });
  await writeFile(file, content);
  const shown = path.relative(io.cwd, file);
  if (flags.json) io.stdout(`${jsonLiteral({ ok: true, file, spec })}\n`);
  else
    io.stderr(
      `${colors.green('wrote')} ${shown} (spec: ${spec}).\n${colors.dim(`Edit it, then run: ${RUN_COMMAND} plan   (or ${RUN_COMMAND} to generate)`)}\n`,
    );
  return EXIT.ok;
}

async function exists(file: string): Promise<boolean> {
  return access(file).then(
    () => true,
    () => false,
  );
}

async function firstExisting(dir: string, names: string[]): Promise<string | undefined> {
  for (const name of names) if (await exists(path.join(dir, name))) return name;
  return undefined;
}
