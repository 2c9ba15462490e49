import { describe, expect, it } from 'vitest';
import { Diagnostics } from '../../../src/diagnostics/diagnostic.js';
import type { OperationModel, ParameterModel, SchemaModel } from '../../../src/model/api-model.js';
import { buildArguments } from '../../../src/plan/arguments/build-arguments.js';
import { argumentView, inputView } from '../../../src/plan/arguments/schema-views.js';

const parameter = (name: string, schema: SchemaModel): ParameterModel => ({
  name,
  in: 'query',
  required: false,
  deprecated: false,
  schema,
  style: 'form',
  explode: true,
  allowReserved: false,
  pointer: '#',
});

const operation = (key: string, parameters: ParameterModel[]): OperationModel => ({
  key,
  id: key,
  derivedId: false,
  method: 'get',
  path: `/${key}`,
  tags: [],
  deprecated: false,
  parameters,
  responses: [],
  security: [],
  servers: [],
  extension: {},
  pointer: '#',
});

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
