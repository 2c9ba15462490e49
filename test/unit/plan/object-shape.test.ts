import { describe, expect, it } from 'vitest';
import type { SchemaModel } from '../../../src/model/api-model.js';
import { objectShape } from '../../../src/plan/arguments/schema-views.js';

/** `Level0` … `Level{n}`: each level an `allOf` of the next and a property of its own; the last a plain object. */
function chain(levels: number): Record<string, SchemaModel> {
  const defs: Record<string, SchemaModel> = {};
  for (let level = 0; level < levels; level++)
    defs[`Level${level}`] = { allOf: [{ $ref: `#/$defs/Level${level + 1}` }, { properties: { [`own${level}`]: { type: 'string' } } }] };
  defs[`Level${levels}`] = { type: 'object', properties: { last: { type: 'integer' } }, required: ['last'] };
  return defs;
}

const names = (schema: SchemaModel, defs: Record<string, SchemaModel>) => objectShape(schema, defs)?.properties.map(([name]) => name);

describe('object shapes', () => {
  it('merge a chain of allOf parts, each schema on the way made once and the same when asked again', () => {
    const defs = chain(3);
    const shape = objectShape(defs['Level0'] as SchemaModel, defs);
    expect(shape?.properties.map(([name]) => name)).toEqual(['last', 'own2', 'own1', 'own0']);
    expect([...(shape?.required ?? [])]).toEqual(['last']);
    expect(objectShape(defs['Level0'] as SchemaModel, defs)).toBe(shape);
    expect(names(defs['Level1'] as SchemaModel, defs)).toEqual(['last', 'own2', 'own1']);
  });

  it('are what a fresh walk gives whatever was asked before, where the depth limit cuts a chain', () => {
    // Eight references and eight parts deep is past the limit from the top, not from halfway down.
    const fresh = chain(9);
    const top = names(fresh['Level0'] as SchemaModel, fresh);
    const middle = names(fresh['Level2'] as SchemaModel, fresh);
    const reversed = chain(9);
    expect(names(reversed['Level2'] as SchemaModel, reversed)).toEqual(middle);
    expect(names(reversed['Level0'] as SchemaModel, reversed)).toEqual(top);
    expect(top).toBeUndefined();
    expect(middle).toEqual(['last', 'own8', 'own7', 'own6', 'own5', 'own4', 'own3', 'own2']);
  });

  it('end a cycle of references', () => {
    const defs: Record<string, SchemaModel> = { A: { allOf: [{ $ref: '#/$defs/B' }] }, B: { allOf: [{ $ref: '#/$defs/A' }] } };
    expect(objectShape(defs['A'] as SchemaModel, defs)).toBeUndefined();
    expect(objectShape(defs['B'] as SchemaModel, defs)).toBeUndefined();
  });
});
