import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PROJECT_DEPENDENCIES } from '../../../src/emit/emit-project.js';
import { finishFile } from '../../../src/emit/format.js';
import { renderTemplate, TEMPLATES_URL } from '../../../src/emit/templates.js';
import { prettierFormat } from '../../helpers/prettier.js';

/** Every JSON template of the scaffold, as renderTemplate names it. */
function jsonTemplates(dir = fileURLToPath(TEMPLATES_URL), prefix = ''): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const relative = `${prefix}${entry.name}`;
    if (entry.isDirectory()) return jsonTemplates(path.join(dir, entry.name), `${relative}/`);
    return entry.name.endsWith('.json.hbs') ? [relative] : [];
  });
}

/** Texts a description or the configuration can put into a JSON scaffold file, the awkward ones among them. */
const TEXTS = [
  'petstore-mcp',
  'MCP server for Swagger Petstore',
  `MCP server for ${'A long API title, '.repeat(12)}`.slice(0, 200),
  'quotes " and \\ and \' and `',
  'line\nbreak\ttab\u0001control',
  'separators \u2028 and \u2029',
  'é 日本 😀 e\u0301',
  'lone \ud800 surrogate',
  '__proto__',
  '123',
  '',
];

describe('JSON scaffold files', () => {
  it('are the JSON templates the scaffold has', () => {
    expect(jsonTemplates().sort()).toEqual(['project/package.json.hbs', 'project/tsconfig.json.hbs']);
  });

  it('are printed from their parsed value exactly as prettier formats the rendered text', async () => {
    for (const template of jsonTemplates()) {
      for (const [index, text] of TEXTS.entries()) {
        for (const flags of [0, 1, 2, 3, 4, 5, 6, 7]) {
          const view = {
            packageName: text,
            packageVersion: TEXTS[(index + 1) % TEXTS.length],
            description: TEXTS[(index + 2) % TEXTS.length],
            nodeEngine: '>=20.19',
            versions: PROJECT_DEPENDENCIES,
            workers: (flags & 1) !== 0,
            perUser: (flags & 2) !== 0,
            search: (flags & 4) !== 0,
          };
          const rendered = renderTemplate(template, view);
          const name = template.replace(/^.*\//, '').replace(/\.hbs$/, '');
          expect(finishFile(name, rendered), `${template} with ${JSON.stringify(view)}`).toBe(await prettierFormat(name, rendered));
        }
      }
    }
  });
});
