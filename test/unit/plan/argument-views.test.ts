import { describe, expect, it } from 'vitest';
import { Diagnostics } from '../../../src/diagnostics/diagnostic.js';
import type { SchemaModel } from '../../../src/model/api-model.js';
import { buildArguments } from '../../../src/plan/arguments/build-arguments.js';
import { argumentView, inputView } from '../../../src/plan/arguments/schema-views.js';
import { buildToolSchema } from '../../../src/plan/arguments/tool-schema.js';
import { operation, parameter } from './model-fixture.js';

describe('argument views', () => {
  it('are one object per distinct schema of a plan, equal to the input view', () => {
    const defs: Record<string, SchemaModel> = {};
    const select = () => ({ type: 'array', items: { type: 'string', enum: ['id', 'name'] }, readOnly: false, example: ['id'] });
    const first = argumentView(select(), defs);
    expect(argumentView(select(), defs)).toBe(first);
    expect(first).toEqual(inputView(select()));
    // Another plan (another `defs`) has views of its own; another schema another view.
    expect(argumentView(select(), {})).not.toBe(first);
    expect(argumentView({ ...select(), description: 'Fields' }, defs)).not.toBe(first);
  });

  it("are what the actions' arguments of one plan share", () => {
    const defs: Record<string, SchemaModel> = {};
    const top = () => parameter('$top', { type: 'integer', minimum: 0 });
    const [me, users] = [operation('me', [top()]), operation('users', [top()])].map(
      (each) => buildArguments(each, defs, new Diagnostics()).arguments[0]?.schema,
    );
    expect(me).toEqual({ type: 'integer', minimum: 0 });
    expect(users).toBe(me);
  });
});

describe('built properties', () => {
  it('are one object per projected schema and description, shared by the builds of a plan', () => {
    const defs: Record<string, SchemaModel> = {};
    const draft = (key: string, description?: string) =>
      buildArguments(
        operation(key, [{ ...parameter('$top', { type: 'integer', minimum: 0 }), ...(description ? { description } : {}) }]),
        defs,
        new Diagnostics(),
      );
    const property = (built: ReturnType<typeof buildToolSchema>) => (built.schema['properties'] as Record<string, unknown>)['top'];
    const [me, users, other] = [draft('me', 'How many.'), draft('users', 'How many.'), draft('other', 'How many at most.')].map((each) =>
      property(buildToolSchema([{ name: '', draft: each }], defs, 0)),
    );
    expect(me).toEqual({ type: 'integer', description: 'How many. Sent as $top in the query.', minimum: 0 });
    expect(users).toBe(me);
    expect(other).toEqual({ type: 'integer', description: 'How many at most. Sent as $top in the query.', minimum: 0 });
  });
});
