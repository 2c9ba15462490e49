import { existsSync } from 'node:fs';
import { cp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'vitest';
import { stringify } from 'yaml';
import { CACHE_DIR } from '../../src/cache/signed-store.js';
import { WatchSession } from '../../src/cache/watch-session.js';
import { runGenerate, runPlan, type GenerateRunResult } from '../../src/pipeline.js';

type Document = { paths: Record<string, Record<string, unknown>> } & Record<string, unknown>;
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** The description's operations as [path, method], in a fixed order. */
function operationsOf(document: Document): Array<[string, string]> {
  return Object.entries(document.paths)
    .flatMap(([key, item]) => METHODS.filter((method) => method in item).map((method): [string, string] => [key, method]))
    .sort(([a, m], [b, n]) => (a === b ? (m < n ? -1 : 1) : a < b ? -1 : 1));
}

/** One operation changed: a new summary and a new optional query parameter. */
export function changeOneOperation(document: Document): Document {
  const copy = structuredClone(document);
  const [key, method] = operationsOf(copy).find(([, method]) => method === 'get') ?? (operationsOf(copy)[0] as [string, string]);
  const operation = copy.paths[key]![method] as { summary?: string; parameters?: unknown[] };
  operation.summary = `${operation.summary ?? 'An operation'} (changed)`;
  operation.parameters = [
    ...(operation.parameters ?? []),
    { name: 'proof_flag', in: 'query', required: false, schema: { type: 'boolean' } },
  ];
  return copy;
}

/** The last operation removed and a new one added on a path of its own. */
export function addAndRemoveOperation(document: Document): Document {
  const copy = structuredClone(document);
  const [key, method] = operationsOf(copy).at(-1) as [string, string];
  delete copy.paths[key]![method];
  copy.paths['/proof-added/{proof_id}'] = {
    get: {
      operationId: 'proofAddedGet',
      summary: 'Read one proof item',
      parameters: [{ name: 'proof_id', in: 'path', required: true, schema: { type: 'string' } }],
      responses: { 200: { description: 'The item' } },
    },
  };
  return copy;
}

/**
 * A shared component changed: the first named schema (in sorted order) gains a documented property. Every operation
 * that reaches it is planned from other content, though none of the operations themselves changed.
 */
export function changeSharedComponent(document: Document): Document {
  const copy = structuredClone(document);
  const components = copy['components'] as { schemas?: Record<string, Record<string, unknown>> } | undefined;
  const schemas = components?.schemas ?? (copy['definitions'] as Record<string, Record<string, unknown>> | undefined) ?? {};
  const name = Object.keys(schemas).sort()[0];
  if (name === undefined) return copy;
  const schema = schemas[name]!;
  schema['description'] = `${String(schema['description'] ?? name)} (changed by the proof)`;
  schema['properties'] = { ...(schema['properties'] as object | undefined), proof_note: { type: 'string', description: 'A note' } };
  return copy;
}

/** A path renamed (its first segment gains a suffix): grouping sees a resource it did not see before. */
export function renamePath(document: Document): Document {
  const copy = structuredClone(document);
  const key = Object.keys(copy.paths).sort()[0];
  if (key === undefined) return copy;
  const renamed = key.replace(/^\/([^/{]*)/, '/$1-renamed');
  copy.paths = Object.fromEntries(Object.entries(copy.paths).map(([path, item]) => [path === key ? renamed : path, item]));
  return copy;
}

/** The first operation (in sorted order) told by its `x-mcp` extension to be a tool of its own, with its own words. */
export function overrideByExtension(document: Document): Document {
  const copy = structuredClone(document);
  const [key, method] = operationsOf(copy)[0] as [string, string];
  const operation = copy.paths[key]![method] as Record<string, unknown>;
  operation['x-mcp'] = { tool: 'proof_own_tool', description: 'Described by the proof.' };
  return copy;
}

/** The configuration's per-operation overrides for the second operation (in sorted order): a description, a hint. */
export function overridesForSecondOperation(document: Document): Record<string, unknown> {
  const [key, method] = (operationsOf(document)[1] ?? operationsOf(document)[0]) as [string, string];
  return {
    [`${method.toUpperCase()} ${key}`]: { description: 'Overridden by the proof configuration.', annotations: { idempotentHint: true } },
  };
}

/** Every file of a folder but the cache's, by relative path. */
async function filesOf(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const walk = async (at: string): Promise<void> => {
    for (const entry of await readdir(at, { withFileTypes: true })) {
      const full = path.join(at, entry.name);
      const relative = path.relative(dir, full);
      if (relative === CACHE_DIR) continue;
      if (entry.isDirectory()) await walk(full);
      else out.set(relative, await readFile(full, 'utf8'));
    }
  };
  await walk(dir);
  return out;
}

export type ProofStep = {
  name: string;
  document: Document;
  options?: Record<string, unknown>;
  /** Done to the cached folder before the step runs (a corrupted cache file). */
  before?: (cached: string) => Promise<void>;
  /** Whether the step may be answered from the cache without planning. */
  expectHit?: boolean;
};

/**
 * Runs each step twice from the same folder state: once with the cache (in `cached`, which keeps its cache from
 * step to step), once without (a copy of the same folder without the cache). Both must leave byte-identical folders,
 * plans and diagnostics. With `session`, the cached runs are a watch's: one WatchSession carries their work from step
 * to step in memory, its cache writes done after each run (awaited before the next step touches the folder), and
 * each step's `plan` through the same session must give the plan of a fresh `plan` too. The description is written as
 * JSON, or as YAML (`format`), each step's text differing from the last only where its document does.
 */
export async function proveCacheIdentical(
  work: string,
  steps: ProofStep[],
  { session, format = 'json' }: { session?: WatchSession; format?: 'json' | 'yaml' } = {},
): Promise<Array<{ step: string; cached: GenerateRunResult }>> {
  const cached = path.join(work, 'cached');
  const full = path.join(work, 'full');
  const results = [];
  await mkdir(work, { recursive: true });
  for (const [index, step] of steps.entries()) {
    await session?.settled();
    const spec = path.join(work, `spec.${format}`);
    await writeFile(spec, format === 'json' ? JSON.stringify(step.document) : stringify(step.document, { aliasDuplicateObjects: false }));
    await rm(full, { recursive: true, force: true });
    if (index > 0) {
      await cp(cached, full, { recursive: true });
      await rm(path.join(full, CACHE_DIR), { recursive: true, force: true });
    }
    await step.before?.(cached);
    const withCache = await runGenerate({ spec, out: cached, ...step.options, ...(session ? { session } : {}) });
    const without = await runGenerate({ spec, out: full, ...step.options, cache: false });
    expect(withCache.ok, `${step.name}: ${JSON.stringify(withCache.diagnostics.filter((d) => d.severity === 'error'))}`).toBe(true);
    expect(without.ok, step.name).toBe(true);
    expect(withCache.diagnostics, step.name).toEqual(without.diagnostics);
    expect(withCache.plan?.totals, step.name).toEqual(without.plan?.totals);
    // The plan as `plan --json` shows it (JSON drops what is undefined, as a plan replayed from the cache has).
    expect(JSON.stringify(withCache.plan), `${step.name}: plan`).toBe(JSON.stringify(without.plan));
    expect(
      withCache.write?.changes.map((change) => change.path),
      step.name,
    ).toEqual(without.write?.changes.map((change) => change.path));
    const [a, b] = await Promise.all([filesOf(cached), filesOf(full)]);
    expect([...a.keys()].sort(), step.name).toEqual([...b.keys()].sort());
    for (const [file, content] of b) expect(a.get(file), `${step.name}: ${file}`).toBe(content);
    if (step.expectHit !== undefined) expect(withCache.timings.plan === 0, `${step.name}: answered from the cache`).toBe(step.expectHit);
    if (session) {
      const [watched, fresh] = [await runPlan({ spec, ...step.options, session }), await runPlan({ spec, ...step.options })];
      expect(watched.diagnostics, `${step.name}: plan --watch`).toEqual(fresh.diagnostics);
      expect(JSON.stringify(watched.plan), `${step.name}: plan --watch`).toBe(JSON.stringify(fresh.plan));
    }
    results.push({ step: step.name, cached: withCache });
  }
  await session?.close();
  return results;
}

/** The steps of the proof, from a description: no change, one changed operation, added and removed, config, corruption. */
export function proofSteps(document: Document): ProofStep[] {
  const changed = changeOneOperation(document);
  const moved = addAndRemoveOperation(changed);
  const corrupt =
    (mutate: (text: string) => string, name = 'run.json') =>
    async (cached: string) => {
      const file = path.join(cached, CACHE_DIR, name);
      await writeFile(file, mutate(await readFile(file, 'utf8')));
    };
  return [
    { name: 'first generation', document },
    // The lock file now pins the names: the first regeneration plans (its inputs differ), the next one is cached.
    { name: 'no change, pinned', document },
    { name: 'no change', document, expectHit: true },
    { name: 'one changed operation', document: changed, expectHit: false },
    { name: 'an added and a removed operation', document: moved, expectHit: false },
    { name: 'changed configuration', document: moved, options: { outputSchema: 'loose', prefix: 'proof' }, expectHit: false },
    // The new prefix renamed the pinned tools: the next regeneration plans under the renamed pins, the one after is cached.
    { name: 'same configuration, renamed pins', document: moved, options: { outputSchema: 'loose', prefix: 'proof' } },
    { name: 'same configuration again', document: moved, options: { outputSchema: 'loose', prefix: 'proof' }, expectHit: true },
    {
      name: 'a truncated cache file',
      document: moved,
      options: { outputSchema: 'loose', prefix: 'proof' },
      before: corrupt((text) => text.slice(0, text.length / 2)),
      expectHit: false,
    },
    { name: 'cache rebuilt', document: moved, options: { outputSchema: 'loose', prefix: 'proof' }, expectHit: true },
    {
      // Valid JSON, the signature kept: the body no longer matches it.
      name: 'a tampered cache body',
      document: moved,
      options: { outputSchema: 'loose', prefix: 'proof' },
      before: corrupt((text) => text.replace('export', 'exportX')),
      expectHit: false,
    },
    // Scaffold files (the deployment ones among them) taken from the work memo where their view did not change.
    { name: 'deployment files', document: moved, options: { outputSchema: 'loose', prefix: 'proof', deploy: true }, expectHit: false },
    {
      // The work memo (build records, modules, scaffold files) edited: ignored as a whole.
      name: 'a tampered work memo and another changed operation',
      document: changeOneOperation(moved),
      options: { outputSchema: 'loose', prefix: 'proof', deploy: true },
      before: corrupt((text) => text.replace('export', 'exportX'), 'work.json'),
      expectHit: false,
    },
    {
      name: 'one more changed operation',
      document: changeOneOperation(changeOneOperation(moved)),
      options: { outputSchema: 'loose', prefix: 'proof', deploy: true },
      expectHit: false,
    },
    {
      // Summaries, builds and tools read the named schemas: none is taken from the memo under the old ones.
      name: 'a changed shared component',
      document: changeSharedComponent(changeOneOperation(changeOneOperation(moved))),
      options: { outputSchema: 'loose', prefix: 'proof', deploy: true },
      expectHit: false,
    },
    {
      name: 'a renamed path',
      document: renamePath(changeSharedComponent(changeOneOperation(changeOneOperation(moved)))),
      options: { outputSchema: 'loose', prefix: 'proof', deploy: true },
      expectHit: false,
    },
    ...overrideSteps(renamePath(changeSharedComponent(changeOneOperation(changeOneOperation(moved))))),
    ...schemaErrorSteps(renamePath(changeSharedComponent(changeOneOperation(changeOneOperation(moved)))), corrupt),
  ];
}

/** Path items that break the OpenAPI schema, one after the other, the kept schema check tampered with, then mended. */
function schemaErrorSteps(
  document: Document,
  corrupt: (mutate: (text: string) => string, name: string) => ProofStep['before'],
): ProofStep[] {
  const options = { outputSchema: 'loose', prefix: 'proof', deploy: true };
  const keys = Object.keys(document.paths);
  const [first, last] = [keys[0] as string, keys.at(-1) as string];
  const broken = (from: Document, key: string) => ({ ...from, paths: { ...from.paths, [key]: { ...from.paths[key], bogus: 1 } } });
  const one = broken(document, first);
  const two = broken(one, last);
  return [
    { name: 'a path item that breaks the schema', document: one, options, expectHit: false },
    { name: 'another item broken', document: two, options, expectHit: false },
    {
      // The signature no longer matches: the description is checked whole. (A watch keeps its check in memory and
      // writes none.)
      name: 'a tampered schema check and the first item mended',
      document: broken(document, last),
      options,
      before: async (cached) => {
        if (existsSync(path.join(cached, CACHE_DIR, 'check.json')))
          await corrupt((text) => text.replace('"errors":[', '"errors":[{"instancePath":"/paths/~1forged"},'), 'check.json')?.(cached);
      },
      expectHit: false,
    },
    { name: 'both mended', document, options, expectHit: false },
  ];
}

/** An `x-mcp` override in the description, then one in the configuration, then both taken back. */
function overrideSteps(document: Document): ProofStep[] {
  const options = { outputSchema: 'loose', prefix: 'proof', deploy: true };
  const overridden = overrideByExtension(document);
  return [
    { name: 'an x-mcp override', document: overridden, options, expectHit: false },
    {
      name: 'a configuration override',
      document: overridden,
      options: { ...options, overrides: overridesForSecondOperation(document) },
      expectHit: false,
    },
    { name: 'both overrides taken back', document, options, expectHit: false },
  ];
}
