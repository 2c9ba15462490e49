import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { emitProject } from '../../src/emit/emit-project.js';
import { planOf } from '../helpers/inline.js';
import { fixtureSpec, REPO_ROOT } from '../helpers/paths.js';

type Manifest = { name: string; version: string; engines: { node: string }; scripts: Record<string, string> };
const manifest = async () => JSON.parse(await readFile(path.join(REPO_ROOT, 'package.json'), 'utf8')) as Manifest;
const readme = () => readFile(path.join(REPO_ROOT, 'README.md'), 'utf8');

/** The shell commands of the README's fenced `sh` blocks up to the first heading after `from`, comments removed. */
function commandsOf(markdown: string, from: string): string[] {
  const start = markdown.indexOf(from);
  const section = markdown.slice(start, markdown.indexOf('\n## ', start + from.length));
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].flatMap((match) =>
    (match[1] ?? '')
      .split('\n')
      .map((line) => line.replace(/\s+#.*$/, '').trim())
      .filter(Boolean),
  );
}

describe('what a stranger meets', () => {
  it("the README's first commands work in a clone: build, then the bin; the registry form is only what will be", async () => {
    const text = await readme();
    const first = commandsOf(text, '## Try it');
    expect(first.slice(0, 2)).toEqual(['npm ci && npm run build', 'node bin/openapi-to-mcp.js samples/petstore/openapi.yaml']);
    // No command anyone is told to run needs the package on the registry, where it is not (E404).
    for (const command of [...first, ...commandsOf(text, '## Usage'), ...commandsOf(text, '### Credentials')])
      expect(command).not.toMatch(/npx -p |npm i(nstall)? (-D )?openapi-mcp-planner/);
    const { name, version } = await manifest();
    expect(first).toContain(`cd /your/project && npm install /path/to/${name}-${version}.tgz`);
    expect(text).toContain(`Once the package is published on the npm registry, \`npx -p ${name} openapi-to-mcp openapi.yaml\``);
  });

  it('a consumer installing the tarball runs no build: prepack builds, no prepare or install script; a clone builds in .ci/run', async () => {
    const { scripts } = await manifest();
    for (const hook of ['prepare', 'preinstall', 'install', 'postinstall']) expect(scripts, hook).not.toHaveProperty(hook);
    expect(scripts['prepack']).toBe('npm run build');
    const ci = await readFile(path.join(REPO_ROOT, '.ci/run'), 'utf8');
    expect(ci).toMatch(/\nnpm ci --no-audit --no-fund\nnpm run build\n/);
    expect(await readme()).toContain('npm ci && npm run build  # installs, then builds');
  });

  it('says one Node.js version everywhere: the README, engines, and every generated project', async () => {
    const { engines } = await manifest();
    const minimum = engines.node.replace(/^>=/, '');
    expect(engines.node).toMatch(/^>=\d+\.\d+$/);
    const text = await readme();
    expect(text).toContain(`Node ${minimum} or later.`);
    for (const match of text.matchAll(/Node(?:\.js)? (\d+\.\d+)/g)) expect(match[1], match[0]).toBe(minimum);
    const { plan } = await planOf(await readFile(fixtureSpec('stripe-shaped.yaml'), 'utf8'));
    const files = Object.fromEntries((await emitProject(plan, { deploy: true })).map((file) => [file.path, file.content]));
    expect(JSON.parse(files['package.json'] ?? '').engines).toEqual({ node: engines.node });
    expect(JSON.parse(files['manifest.json'] ?? '').compatibility.runtimes).toEqual({ node: engines.node });
    expect(files['README.md']).toContain(`It needs Node.js ${minimum} or later.`);
    // The generated README names the generator without a link to a registry page that does not exist yet.
    expect(files['README.md']).not.toContain('npmjs.com/package');
    expect(files['README.md']).not.toContain('npx -p ');
  });

  it('the generated README says how to try the server against a stand-in, and warns about Prism on a large API', async () => {
    const small = await planOf(await readFile(fixtureSpec('stripe-shaped.yaml'), 'utf8'));
    const readmeOf = async (plan: typeof small.plan) =>
      (await emitProject(plan, {})).find((file) => file.path === 'README.md')?.content ?? '';
    const text = await readmeOf(small.plan);
    expect(text).toContain('### Without the real API');
    expect(text).toContain('STRIPE_BASE_URL=http://127.0.0.1:4010 node dist/main.js --http');
    expect(text).toContain('npx @stoplight/prism-cli@5 mock openapi.yaml');
    expect(text).not.toContain('this one has');
    const large = { ...small.plan, totals: { ...small.plan.totals, operations: 452 } };
    expect((await readmeOf(large)).replace(/\s+/g, ' ')).toContain('this one has 452 operations');
  });
});
