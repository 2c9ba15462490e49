#!/usr/bin/env node
// The last step of `npm run build`: the command line's modules, as tsc wrote them to dist/, bundled into
// dist/bundle/cli.js (what bin/openapi-to-mcp.js runs) and a few chunks beside it that each command imports when it
// runs. Node then resolves, reads and links about ten files instead of some 160 on every run: importing what a
// generation runs cost about 165 ms of CPU as separate files and about 45 ms bundled. The packages stay external:
// they load from node_modules as before, wherever npm put them — all but yargs (see YARGS_SHIM). The library entry
// (dist/index.js) and the validation worker stay as tsc wrote them.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const dist = path.join(root, 'dist');
const out = path.join(dist, 'bundle');

/**
 * Modules find files next to themselves through `import.meta.url` (the templates, package.json, the compiled
 * validators, the worker, `createRequire`). In the bundle each module's `import.meta.url` is replaced with the URL of
 * the file tsc wrote for it, which stays in dist/, so every such path resolves as it did before bundling.
 */
const keepModuleUrls = {
  name: 'keep-module-urls',
  transform(code, id) {
    if (!id.startsWith(dist + path.sep) || !code.includes('import.meta.url')) return null;
    const fromBundle = path.relative(out, id).split(path.sep).join('/');
    const url = `new URL(${JSON.stringify(fromBundle)}, import.meta.url).href`;
    // No lines move (only columns after the replaced expressions): the bundle's map stays right line by line.
    return { code: code.replaceAll('import.meta.url', url), map: null };
  },
};

/**
 * yargs is bundled with the packages it imports (a chunk of its own, loaded by every command but `--version`): as
 * some 40 files of its own and its dependencies' its import took 65–70 ms in a fresh process, bundled about 40 ms.
 * Its ESM shim finds its locale files next to itself through `import.meta.url`: that URL is the installed shim's,
 * resolved when the chunk loads (wherever npm put yargs), so help and errors speak the user's language as before.
 */
const YARGS_SHIM = `${path.sep}yargs${path.sep}lib${path.sep}platform-shims${path.sep}esm.mjs`;
const SHIM_URL = '__installedYargsShimUrl';
const installedYargsShim = `const ${SHIM_URL} = (() => {
  try {
    return new URL('./lib/platform-shims/esm.mjs', import.meta.resolve('yargs')).href;
  } catch {
    return import.meta.url;
  }
})();
`;

const keepYargsShimUrl = {
  name: 'keep-yargs-shim-url',
  transform(code, id) {
    if (!id.endsWith(YARGS_SHIM)) return null;
    return { code: installedYargsShim + code.replaceAll('import.meta.url', SHIM_URL), map: null };
  },
};

const builtins = new Set(builtinModules);

/** Node's own modules, and every package our code imports but yargs, load at run time as they do unbundled. */
function external(id, importer) {
  if (id.startsWith('node:') || builtins.has(id)) return true;
  if (id.startsWith('.') || path.isAbsolute(id)) return false;
  const fromYargs = importer !== undefined && importer.split(path.sep).includes('node_modules');
  return !fromYargs && id !== 'yargs';
}

await build({
  // The bin starts `cli-host` on the main thread, which runs `cli-thread` in a worker (src/cli/cli-thread.ts); `cli`
  // is the command line itself, for the library's callers and for a process that cannot start a worker.
  input: {
    cli: path.join(dist, 'cli/main.js'),
    'cli-host': path.join(dist, 'cli/cli-thread.js'),
    'cli-thread': path.join(dist, 'cli/cli-thread-worker.js'),
  },
  platform: 'node',
  external,
  plugins: [keepModuleUrls, keepYargsShimUrl],
  // The maps point profiles back at tsc's modules (bench/profile-summary.mjs reads them); Node reads them only when
  // asked (--enable-source-maps).
  output: {
    dir: out,
    format: 'esm',
    entryFileNames: '[name].js',
    chunkFileNames: '[name].js',
    cleanDir: true,
    sourcemap: true,
    sourcemapExcludeSources: true,
  },
  logLevel: 'warn',
});
writeFileSync(path.join(out, 'THIRD-PARTY-LICENSES.txt'), bundledLicenses(path.join(out, 'yargs.js.map')));
console.log(`bundle: dist/cli/main.js → ${path.relative(root, out)}/cli.js`);

/** The licence of every package the chunk at `mapFile` holds code of (from its source map), as their terms ask. */
function bundledLicenses(mapFile) {
  const modules = `${path.sep}node_modules${path.sep}`;
  const folders = new Set();
  for (const source of JSON.parse(readFileSync(mapFile, 'utf8')).sources) {
    const file = path.resolve(path.dirname(mapFile), source);
    const at = file.lastIndexOf(modules);
    if (at < 0) continue;
    const installed = file.slice(0, at + modules.length);
    const [scope, name] = file.slice(installed.length).split(path.sep);
    folders.add(path.join(installed, scope.startsWith('@') ? `${scope}${path.sep}${name}` : scope));
  }
  const notices = [...folders].sort().map((folder) => {
    const { name, version, license } = JSON.parse(readFileSync(path.join(folder, 'package.json'), 'utf8'));
    const file = readdirSync(folder).find((entry) => /^licen[cs]e/i.test(entry));
    const text = file ? readFileSync(path.join(folder, file), 'utf8').trim() : `${license}`;
    return `${name}@${version} (${license})\n\n${text}\n`;
  });
  return `dist/bundle/yargs.js holds code of these packages:\n\n${notices.join('\n---\n\n')}`;
}
