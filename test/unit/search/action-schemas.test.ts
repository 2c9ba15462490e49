import { describe, expect, it } from 'vitest';
import { Diagnostics } from '../../../src/diagnostics/diagnostic.js';
import type { SchemaModel } from '../../../src/model/api-model.js';
import { buildArguments } from '../../../src/plan/arguments/build-arguments.js';
import { actionInputSchema, MAX_SCHEMA_CHARS } from '../../../src/search/action-schema.js';
import { buildToolSchema } from '../../../src/plan/arguments/tool-schema.js';
import { ActionSchemas } from '../../../src/search/action-schemas.js';
import { operation, parameter } from '../plan/model-fixture.js';

describe('the catalog’s action schemas', () => {
  const defs: Record<string, SchemaModel> = {};
  const draft = (key: string, description = 'Fields to return.', name = '$select') =>
    buildArguments(operation(key, [parameter(name, { type: 'array', items: { type: 'string' } }, description)]), defs, new Diagnostics());

  it('are one object for actions alike in everything their schema is made of, the one each would get alone', () => {
    const schemas = new ActionSchemas(defs);
    const me = schemas.of(draft('me'), true);
    expect(me).toEqual(actionInputSchema(draft('me'), defs, true));
    expect(schemas.of(draft('users'), true)).toBe(me);
  });

  it('differ where the arguments, the concise view or the name sent differ', () => {
    const schemas = new ActionSchemas(defs);
    const me = schemas.of(draft('me'), true);
    const others = [
      schemas.of(draft('users'), false),
      schemas.of(draft('users', 'Properties to return.'), true),
      schemas.of(draft('users', 'Fields to return.', 'select'), true),
    ];
    for (const other of others) expect(other).not.toBe(me);
    expect(others).toEqual([
      actionInputSchema(draft('users'), defs, false),
      actionInputSchema(draft('users', 'Properties to return.'), defs, true),
      actionInputSchema(draft('users', 'Fields to return.', 'select'), defs, true),
    ]);
  });
});

describe('the leaner levels of a catalog schema', () => {
  it('are taken exactly when the fullest schema is longer than MAX_SCHEMA_CHARS', () => {
    const defs: Record<string, SchemaModel> = {};
    // One description grows a character at a time, so that the fullest schema's length steps over the limit.
    const sizes = new Set<number>();
    for (let extra = 0; extra < 120; extra++) {
      const parameters = Array.from({ length: 75 }, (_, index) =>
        parameter(
          `field_${index}`,
          { type: 'string' },
          `The field number ${index} of the thing${index === 0 ? ` ${'x'.repeat(extra)}` : ''}.`,
        ),
      );
      const action = buildArguments(operation('things', parameters), defs, new Diagnostics());
      const fullest = buildToolSchema([{ name: '', draft: action }], defs, 0).schema;
      const length = JSON.stringify(fullest).length;
      sizes.add(length);
      const chosen = actionInputSchema(action, defs, false);
      if (length <= MAX_SCHEMA_CHARS) expect(chosen).toEqual(fullest);
      else expect(JSON.stringify(chosen).length).toBeLessThan(length);
    }
    expect(sizes.has(MAX_SCHEMA_CHARS) && sizes.has(MAX_SCHEMA_CHARS + 1)).toBe(true);
  });
});
