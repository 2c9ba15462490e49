import { readFile } from 'node:fs/promises';
import { load as loadYaml } from 'js-yaml';
import { isJsonObject, setOwn, type JsonObject, type JsonValue } from '../../src/load/openapi-document.js';
import { CORPUS } from '../helpers/corpus.js';
import { placeFor } from './place.js';
import type { Random } from './random.js';

/** A corpus description ready for mutation: parsed once, with where to write a mutated copy so its `$ref`s resolve. */
export type Seed = {
  name: string;
  root: JsonObject;
  format: 'json' | 'yaml';
  /** Folder the mutated entry file is written to (next to the original entry, for relative `$ref`s). */
  entryDir: string;
  /** Folder file `$ref`s may not leave. */
  refRoot: string;
  /** Large descriptions are sliced to a few paths per iteration; small ones are sometimes fuzzed whole. */
  bytes: number;
};

/**
 * Loads every description of the corpus (test/helpers/corpus.ts). Multi-file descriptions are copied into `workDir`
 * first, so that a mutated entry can sit next to the files it references without touching the originals.
 */
export async function loadSeeds(workDir: string): Promise<Seed[]> {
  const seeds: Seed[] = [];
  for (const entry of CORPUS) {
    const text = await readFile(entry.spec, 'utf8');
    const json = entry.spec.endsWith('.json');
    const parsed = (json ? JSON.parse(text) : loadYaml(text)) as JsonValue;
    if (!isJsonObject(parsed)) continue;
    const { entryDir, refRoot } = await placeFor(workDir, entry.name);
    seeds.push({ name: entry.name, root: parsed, format: json ? 'json' : 'yaml', entryDir, refRoot, bytes: text.length });
  }
  return seeds;
}

const SWAGGER2_CONTAINERS = ['definitions', 'parameters', 'responses'];

/**
 * A smaller description with the same character: a few path items, the components they reach (following `$ref`s),
 * a few unrelated components for `$ref` rewrites to land on, and everything else of the root as it is.
 */
export function slice(random: Random, seed: Seed): JsonObject {
  const root = seed.root;
  const paths = isJsonObject(root['paths']) ? root['paths'] : {};
  const keys = Object.keys(paths);
  if (keys.length <= 8 && seed.bytes < 300_000) return structuredClone(root);
  const chosen = new Set<string>();
  for (let count = random.between(1, Math.min(8, keys.length)); chosen.size < count;) chosen.add(random.pick(keys));
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(root)) {
    if (key === 'paths' || key === 'components' || SWAGGER2_CONTAINERS.includes(key)) continue;
    setOwn(out, key, structuredClone(value));
  }
  const slicedPaths: JsonObject = {};
  for (const key of chosen) setOwn(slicedPaths, key, structuredClone(paths[key] as JsonValue));
  setOwn(out, 'paths', slicedPaths);
  // Containers of reusable objects: `components/<kind>` in 3.x, the root containers in Swagger 2.0.
  const containers = new Map<string, JsonObject>();
  const components = isJsonObject(root['components']) ? root['components'] : undefined;
  if (components)
    for (const [kind, value] of Object.entries(components)) if (isJsonObject(value)) containers.set(`components/${kind}`, value);
  for (const key of SWAGGER2_CONTAINERS) if (isJsonObject(root[key])) containers.set(key, root[key] as JsonObject);
  const kept = new Map<string, Set<string>>();
  const keep = (container: string, name: string) => {
    const names = kept.get(container) ?? new Set<string>();
    if (names.has(name) || !containers.get(container)?.[name]) return false;
    names.add(name);
    kept.set(container, names);
    return true;
  };
  // Security schemes are small and every operation may name them.
  for (const name of Object.keys(containers.get('components/securitySchemes') ?? {})) keep('components/securitySchemes', name);
  for (const [container, value] of containers) {
    const names = Object.keys(value);
    for (let extra = random.int(3); extra > 0 && names.length > 0; extra--) keep(container, random.pick(names));
  }
  const queue: JsonValue[] = [slicedPaths];
  while (queue.length > 0) {
    const node = queue.pop() as JsonValue;
    for (const ref of localRefs(node)) {
      const tokens = ref
        .slice(2)
        .split('/')
        .map((token) => decodeToken(token));
      const container = tokens[0] === 'components' ? `components/${tokens[1] ?? ''}` : (tokens[0] ?? '');
      const name = tokens[0] === 'components' ? tokens[2] : tokens[1];
      if (name !== undefined && keep(container, name)) queue.push(containers.get(container)?.[name] as JsonValue);
      if (tokens[0] === 'paths' && name === undefined && tokens[1] !== undefined && !(tokens[1] in slicedPaths)) {
        setOwn(slicedPaths, tokens[1], structuredClone(paths[tokens[1]] as JsonValue));
        queue.push(slicedPaths[tokens[1]] as JsonValue);
      }
    }
  }
  for (const [container, names] of kept) {
    const [first, second] = container.split('/');
    const holder = second === undefined ? out : ((out['components'] ??= {}) as JsonObject);
    const key = second ?? (first as string);
    const target = ((holder[key] as JsonObject | undefined) ?? {}) as JsonObject;
    for (const name of names) setOwn(target, name, structuredClone(containers.get(container)?.[name] as JsonValue));
    setOwn(holder, key, target);
  }
  return out;
}

function decodeToken(token: string): string {
  let decoded = token;
  try {
    decoded = decodeURIComponent(token);
  } catch {
    // A malformed escape stays as written; the description is already broken there.
  }
  return decoded.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** Every internal `$ref` string under a node. */
function localRefs(node: JsonValue): string[] {
  const out: string[] = [];
  const stack: JsonValue[] = [node];
  while (stack.length > 0) {
    const current = stack.pop() as JsonValue;
    if (Array.isArray(current)) stack.push(...current);
    else if (isJsonObject(current)) {
      for (const [key, value] of Object.entries(current)) {
        if (key === '$ref' && typeof value === 'string' && value.startsWith('#/')) out.push(value);
        else stack.push(value);
      }
    }
  }
  return out;
}
