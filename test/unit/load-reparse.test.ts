import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Diagnostics } from '../../src/diagnostics/diagnostic.js';
import type { JsonObject } from '../../src/kernel/json.js';
import { loadSpec } from '../../src/load/load-spec.js';
import { DocumentReparse } from '../../src/load/reparse-document.js';
import { withDefaults } from '../helpers/options.js';

/**
 * A YAML description whose text does not show every `$ref` internal at a glance: a double-quoted string broken over
 * two lines with an escaped line break, as YAML writers fold long strings.
 */
const description = (summary: string, ref = '#/components/schemas/Pet') => `openapi: 3.0.3
info:
  title: "A title folded \\
    over two lines"
  version: "1"
paths:
  /pets:
    get:
      summary: ${summary}
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema:
                $ref: "${ref}"
  /owners:
    get:
      responses:
        "200":
          description: ok
components:
  schemas:
    Pet:
      type: object
`;

describe('a watch’s load, save after save', () => {
  it('parses a save from the last one where no item refers to another file, and bundles one that starts to', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'otm-load-reparse-'));
    const spec = path.join(dir, 'openapi.yaml');
    await writeFile(path.join(dir, 'pet.yaml'), 'type: object\nproperties:\n  name: {type: string}\n');
    const reparse = new DocumentReparse();
    const load = async (text: string) => {
      await writeFile(spec, text);
      const diagnostics = new Diagnostics();
      const document = await loadSpec(withDefaults({ spec, validate: false, reparse }), diagnostics);
      expect(diagnostics.hasErrors).toBe(false);
      return document!;
    };
    const first = await load(description('List pets'));
    const second = await load(description('List the pets'));
    // Parsed from the first: every other object is the first document's.
    expect((second.root['paths'] as JsonObject)['/pets']).toMatchObject({ get: { summary: 'List the pets' } });
    expect(second.root['components']).toBe(first.root['components']);
    expect(second.externalRefs).toBeUndefined();
    // The changed item now refers to another file: parsed whole and bundled, and nothing kept to parse from.
    const third = await load(description('List the pets', 'pet.yaml'));
    expect(third.externalRefs).toBe(true);
    expect(JSON.stringify(third.root)).toContain('"name"');
    const fourth = await load(description('List all pets', 'pet.yaml'));
    expect(fourth.externalRefs).toBe(true);
    expect(fourth.root['components']).not.toBe(third.root['components']);
  });
});
