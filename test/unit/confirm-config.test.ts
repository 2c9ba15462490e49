import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFIG_SCHEMA } from '../../src/config/config-schema.js';
import { validateConfig } from '../../src/config/validate-config.js';
import { toRunOptions } from '../../src/config/resolve-config.js';
import { runGenerate } from '../../src/pipeline.js';
import { fixtureSpec } from '../helpers/paths.js';
import { tempDir } from '../helpers/project.js';

describe('confirm in the configuration', () => {
  it('writes the policies into src/api.ts, leaving out a tool that deletes nothing, with a warning', async () => {
    const out = await tempDir('confirm-config');
    const config = {
      spec: fixtureSpec('sentry-shaped.yaml'),
      out,
      cache: false,
      confirm: { policy: 'require', tools: { projects_delete: 'off', projects_read: 'require' } },
    } as const;
    expect(validateConfig(config, CONFIG_SCHEMA)).toEqual([]);
    const result = await runGenerate(toRunOptions(config));
    expect(result.ok).toBe(true);
    const api = await readFile(path.join(out, 'src/api.ts'), 'utf8');
    expect(api).toContain("  confirm: {\n    policy: 'require',\n    tools: {\n      projects_delete: 'off',\n    },\n  },\n");
    expect(result.diagnostics.map((item) => `${item.code} ${item.pointer} ${item.message}`)).toContain(
      'OTM_CONFIG_INVALID #/confirm/tools/projects_read confirm.tools names no tool of the plan that deletes: "projects_read".',
    );
  });

  it('refuses a policy it does not know', () => {
    const issues = validateConfig({ confirm: { policy: 'always' } }, CONFIG_SCHEMA);
    expect(issues.map((issue) => issue.path)).toEqual([['confirm', 'policy']]);
  });
});
