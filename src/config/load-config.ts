import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Document, LineCounter } from 'yaml';
import type { Diagnostics } from '../diagnostics/diagnostic.js';
import { pointerOf } from '../diagnostics/json-pointer.js';
import { CONFIG_SCHEMA, type UserConfig } from './config-schema.js';
import { resolveConfigPaths } from './resolve-config.js';
import { validateConfig } from './validate-config.js';

/** Looked for in the working directory, in this order, when no `--config` is given. */
export const CONFIG_FILE_NAMES = ['openapi-to-mcp.config.json', 'openapi-to-mcp.config.yaml', 'openapi-to-mcp.config.yml'];

export type LoadedConfig = {
  config: UserConfig;
  /** Absolute path of the file; relative paths in it are resolved against its folder. */
  file: string;
};

/**
 * Finds the configuration file: the one `--config` names, else the first of CONFIG_FILE_NAMES in `cwd`. Two files
 * of different formats in one folder are ambiguous and rejected rather than one silently winning.
 */
export async function findConfigFile(cwd: string, explicit: string | undefined, diagnostics: Diagnostics): Promise<string | undefined> {
  if (explicit !== undefined) return path.resolve(cwd, explicit);
  const present: string[] = [];
  for (const name of CONFIG_FILE_NAMES) {
    const candidate = path.join(cwd, name);
    if (
      await readFile(candidate).then(
        () => true,
        () => false,
      )
    )
      present.push(candidate);
  }
  if (present.length > 1)
    diagnostics.error(
      'OTM_CONFIG_INVALID',
      `Found ${present.map((file) => path.basename(file)).join(' and ')}; keep one configuration file.`,
      {
        hint: 'Or choose one with --config FILE.',
      },
    );
  return present[0];
}

/** Reads, parses (JSON or YAML) and validates a configuration file; every problem becomes an OTM_CONFIG_INVALID. */
export async function loadConfigFile(file: string, cwd: string, diagnostics: Diagnostics): Promise<LoadedConfig | undefined> {
  const shown = path.relative(cwd, file) || file;
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    diagnostics.error(
      'OTM_CONFIG_INVALID',
      `Cannot read the configuration file ${shown}: ${(error as NodeJS.ErrnoException).code ?? 'unreadable'}.`,
      {
        hint: 'Check the path given to --config, or run `openapi-to-mcp init` to write one.',
      },
    );
    return undefined;
  }
  // Loaded only when there is a file to read: the parser is a quarter of a second of module loading.
  const yaml = await import('yaml');
  const lines = new yaml.LineCounter();
  // YAML 1.2 core schema, like the description parser: `version: 2020-09-14` stays a string. JSON is valid YAML.
  const document = yaml.parseDocument(text, { lineCounter: lines, prettyErrors: false, schema: 'core', uniqueKeys: true });
  if (document.errors.length > 0) {
    for (const error of document.errors.slice(0, 3)) {
      const at = lines.linePos(error.pos[0]);
      diagnostics.error(
        'OTM_CONFIG_INVALID',
        `${shown} is not valid ${file.endsWith('.json') ? 'JSON' : 'YAML'}: ${error.message.split('\n')[0]}`,
        {
          file: shown,
          line: at.line,
          column: at.col,
        },
      );
    }
    return undefined;
  }
  const value: unknown = document.toJS() ?? {};
  const issues = validateConfig(value, CONFIG_SCHEMA);
  for (const issue of issues) {
    const at = locate(yaml, document, issue.path, lines);
    diagnostics.error('OTM_CONFIG_INVALID', issue.message, {
      pointer: pointerOf(...issue.path),
      file: shown,
      ...(at ? { line: at.line, column: at.col } : {}),
      ...(issue.hint ? { hint: issue.hint } : {}),
    });
  }
  return issues.length > 0 ? undefined : { config: value as UserConfig, file };
}

/** Line and column of the value (or, for an unknown key, the key) at a path; the nearest existing ancestor otherwise. */
function locate(
  { isMap, isNode, isSeq }: typeof import('yaml'),
  document: Document,
  tokens: Array<string | number>,
  lines: LineCounter,
): { line: number; col: number } | undefined {
  let node: unknown = document.contents;
  let position: number | undefined = isNode(node) ? node.range?.[0] : undefined;
  for (const token of tokens) {
    if (isMap(node)) {
      const pair = node.items.find((item) => isNode(item.key) && String((item.key as { value?: unknown }).value) === String(token));
      if (!pair) break;
      position = isNode(pair.key) ? (pair.key.range?.[0] ?? position) : position;
      node = pair.value;
    } else if (isSeq(node) && typeof token === 'number') {
      node = node.items[token];
      position = isNode(node) ? (node.range?.[0] ?? position) : position;
    } else break;
  }
  return position === undefined ? undefined : lines.linePos(position);
}

/**
 * The programmatic way to use a configuration file: finds it (`file`, else the usual names in `cwd`), validates it
 * and returns it with its paths made absolute, or the diagnostics that explain why not.
 */
export async function readConfig(
  options: { cwd?: string; file?: string },
  diagnostics: Diagnostics,
): Promise<{ config: UserConfig; file: string } | undefined> {
  const cwd = path.resolve(options.cwd ?? '.');
  const file = await findConfigFile(cwd, options.file, diagnostics);
  if (!file || diagnostics.hasErrors) return undefined;
  const loaded = await loadConfigFile(file, cwd, diagnostics);
  return loaded ? { config: resolveConfigPaths(loaded.config, path.dirname(loaded.file)), file: loaded.file } : undefined;
}
