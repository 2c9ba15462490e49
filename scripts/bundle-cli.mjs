#!/usr/bin/env node
// The last step of `npm run build`: the command line's modules, as tsc wrote them to dist/, bundled into
// dist/bundle/cli.js (what bin/openapi-to-mcp.js runs) and a few chunks beside it that each command imports when it
// runs. Node then resolves, reads and links about ten files instead of some 160 on every run: importing what a
// generation runs cost about 165 ms of CPU as separate files and about 45 ms bundled. The packages stay external:
// they load from node_modules as before, wherever npm put them. The library entry (dist/index.js) and the validation worker stay as tsc wrote them.
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

await build({
  // The bin starts `cli-host` on the main thread, which runs `cli-thread` in a worker (src/cli/cli-thread.ts); `cli`
  // is the command line itself, for the library's callers and for a process that cannot start a worker.
  input: {
    cli: path.join(dist, 'cli/main.js'),
    'cli-host': path.join(dist, 'cli/cli-thread.js'),
    'cli-thread': path.join(dist, 'cli/cli-thread-worker.js'),
  },
  platform: 'node',
  // Bare specifiers (packages, node: builtins) load from node_modules at run time, as they do unbundled.
  external: (id) => !id.startsWith('.') && !path.isAbsolute(id),
  plugins: [keepModuleUrls],
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
console.log(`bundle: dist/cli/main.js → ${path.relative(root, out)}/cli.js`);
