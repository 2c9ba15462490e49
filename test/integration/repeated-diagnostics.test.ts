import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runBin } from '../helpers/cli.js';
import { openapi } from '../helpers/inline.js';
import { tempDir } from '../helpers/project.js';

/** Seven GET operations that describe a body (Stripe has 213): the same OTM_BODY_IGNORED warning seven times. */
function bodiesOnGets(count: number): string {
  const paths: Record<string, object> = {};
  for (let index = 1; index <= count; index++)
    paths[`/things${index}`] = {
      get: {
        operationId: `listThings${index}`,
        requestBody: { content: { 'application/x-www-form-urlencoded': { schema: { type: 'object' } } } },
        responses: { '200': { description: 'ok' } },
      },
    };
  return openapi(paths);
}

describe('a diagnostic repeated at many places', () => {
  it('prints once with a count and the first three places; --verbose prints every one; --json keeps them all', async () => {
    const dir = await tempDir('repeated-diagnostics');
    await mkdir(dir, { recursive: true });
    const spec = path.join(dir, 'openapi.json');
    await writeFile(spec, bodiesOnGets(7));

    const plain = await runBin(['plan', spec], { cwd: dir });
    expect(plain.code, plain.stderr).toBe(0);
    const warnings = plain.stderr.split('\n').filter((line) => line.startsWith('warning[OTM_BODY_IGNORED]'));
    expect(warnings).toEqual([
      'warning[OTM_BODY_IGNORED] A GET request cannot carry a body; the request body described here was left out. (7 times)',
    ]);
    expect(plain.stderr).toContain(
      '  at #/paths/~1things1/get/requestBody, #/paths/~1things2/get/requestBody, #/paths/~1things3/get/requestBody and 4 more (--verbose lists every one)',
    );
    expect(plain.stderr.match(/hint: Move the fields to query parameters/g)).toHaveLength(1);
    expect(plain.stderr).not.toContain('~1things4');

    const verbose = await runBin(['plan', spec, '--verbose'], { cwd: dir });
    expect(verbose.code, verbose.stderr).toBe(0);
    expect(verbose.stderr.match(/^warning\[OTM_BODY_IGNORED\]/gm)).toHaveLength(7);
    for (let index = 1; index <= 7; index++) expect(verbose.stderr).toContain(`  at #/paths/~1things${index}/get/requestBody`);

    const json = await runBin(['plan', spec, '--json'], { cwd: dir });
    const diagnostics = (JSON.parse(json.stdout) as { warnings: Array<{ code: string }> }).warnings;
    expect(diagnostics.filter((diagnostic) => diagnostic.code === 'OTM_BODY_IGNORED')).toHaveLength(7);
  });

  it('prints a diagnostic that occurs once as before, and two in full with a count', async () => {
    const dir = await tempDir('repeated-diagnostics-few');
    await mkdir(dir, { recursive: true });
    const spec = path.join(dir, 'openapi.json');
    await writeFile(spec, bodiesOnGets(2));
    const twice = await runBin(['plan', spec], { cwd: dir });
    expect(twice.stderr).toContain(
      'left out. (2 times)\n  at #/paths/~1things1/get/requestBody, #/paths/~1things2/get/requestBody\n  hint:',
    );
    await writeFile(spec, bodiesOnGets(1));
    const once = await runBin(['plan', spec], { cwd: dir });
    expect(once.stderr).toContain('left out.\n  at #/paths/~1things1/get/requestBody\n  hint:');
    expect(once.stderr).not.toContain('times)');
  });
});
