import { describe, expect, it } from 'vitest';
import { diff, generate, plan } from '../../src/index.js';
import { fixtureSpec } from '../helpers/paths.js';
import { tempDir } from '../helpers/project.js';

describe('programmatic API', () => {
  it('plans, generates and diffs with the same results as the CLI', async () => {
    const planned = await plan({ spec: fixtureSpec('oai-petstore.yaml') });
    expect(planned.ok).toBe(true);
    expect(planned.plan?.tools.map((tool) => tool.name)).toEqual(['pets_read', 'pets_write']);
    const out = await tempDir('api-generate');
    const generated = await generate({ spec: fixtureSpec('oai-petstore.yaml'), out });
    expect(generated.ok).toBe(true);
    expect(generated.write?.changes.length).toBeGreaterThan(10);
    const changes = await diff({ old: fixtureSpec('oai-petstore.yaml'), new: fixtureSpec('oai-petstore-expanded.json') });
    expect(changes.ok).toBe(true);
    expect(changes.diff).toEqual({
      changes: [
        { kind: 'tool-added', tool: 'pets_delete', breaking: false },
        { kind: 'action-added', tool: 'pets_read', action: 'find_pet_by_id', breaking: false },
        { kind: 'argument-added', tool: 'pets_read', action: 'list', argument: 'tags', breaking: false },
        { kind: 'action-removed', tool: 'pets_read', action: 'show', breaking: true },
        { kind: 'argument-removed', tool: 'pets_write', action: '', argument: 'id', breaking: true },
      ],
      breaking: 2,
    });
  });
});
