import type { OperationModel, ParameterModel, SchemaModel } from '../../../src/model/api-model.js';

/** A query parameter of the model, as the model stage makes one. */
export const parameter = (name: string, schema: SchemaModel, description?: string): ParameterModel => ({
  name,
  in: 'query',
  required: false,
  ...(description ? { description } : {}),
  deprecated: false,
  schema,
  style: 'form',
  explode: true,
  allowReserved: false,
  pointer: '#',
});

/** A GET operation of the model with these parameters, keyed and named `key`. */
export const operation = (key: string, parameters: ParameterModel[]): OperationModel => ({
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
