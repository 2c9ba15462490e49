// Generated servers, built the way each generator's README says, ready to start over stdio.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { linkModules, peerRuntime } from './inputs.mjs';
import { measure, mustRun } from './processes.mjs';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/**
 * Ours: generate, use the repository's installed packages (the versions the project pins), then the project's
 * `npm run build` — `tsc -p` and the bundle into dist/main.js.
 */
export async function buildOurs(repo, spec, dir) {
  rmSync(dir, { recursive: true, force: true });
  await mustRun(process.execPath, [path.join(repo, 'bin/openapi-to-mcp.js'), spec, '-o', dir, '--quiet']);
  linkModules(path.join(repo, 'node_modules'), dir);
  const compiled = await measure(process.execPath, [path.join(repo, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], {
    cwd: dir,
  });
  const build =
    compiled.code === 0
      ? await measure(process.execPath, [path.join(repo, 'node_modules/rolldown/bin/cli.mjs'), '-c', 'rolldown.config.mjs'], { cwd: dir })
      : compiled;
  const { envPrefix } = JSON.parse(readFileSync(path.join(dir, 'test/cases.json'), 'utf8'));
  return {
    who: 'ours',
    dir,
    built: build.code === 0,
    buildNote: build.code === 0 ? 'tsc: no errors' : firstErrors(build.stdout + build.stderr),
    entry: path.join(dir, 'dist/main.js'),
    env: (upstream) => ({ [`${envPrefix}_BASE_URL`]: upstream, [`${envPrefix}_RATE_LIMIT`]: '100000000' }),
  };
}

/** The peer: generate, `npm install` (shared, linked), `npm run build` (tsc emits JavaScript even when it reports errors). */
export async function buildPeer(peerBin, work, spec, dir, log) {
  rmSync(dir, { recursive: true, force: true });
  await mustRun(process.execPath, [peerBin, '--input', spec, '--output', dir, '--force']);
  await peerRuntime(work, dir, log);
  const build = await measure(npm, ['run', 'build', '--silent'], { cwd: dir });
  const entry = path.join(dir, 'build/index.js');
  return {
    who: 'peer',
    dir,
    built: existsSync(entry),
    buildNote: build.code === 0 ? 'tsc: no errors' : `npm run build exits ${build.code}: ${firstErrors(build.stdout + build.stderr)}`,
    entry,
    env: (upstream) => ({ API_BASE_URL: upstream }),
  };
}

function firstErrors(output) {
  const errors = output.split('\n').filter((line) => /error TS\d+/.test(line));
  if (errors.length === 0) return output.trim().split('\n').slice(-1)[0] ?? 'failed';
  const codes = [...new Set(errors.map((line) => /error (TS\d+)/.exec(line)?.[1]))];
  return `${errors.length} tsc error${errors.length === 1 ? '' : 's'} (${codes.join(', ')})`;
}
