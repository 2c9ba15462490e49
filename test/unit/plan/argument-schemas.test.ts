import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it, vi } from 'vitest';
import { ValidationView } from '../../../src/plan/arguments/validation-view.js';
import { actionOf, planOf } from './plan-fixture.js';

const ok = { 200: { description: 'ok' } };

function openapi(paths: object, schemas: object = {}, version = '3.0.3') {
  return {
    openapi: version,
    info: { title: 'T', version: '1' },
    servers: [{ url: 'https://api.example.com' }],
    paths,
    components: { schemas },
  };
}

describe('argument schemas', () => {
  it('keep the rules the input schema may drop, keyed by the tool argument names', async () => {
    const plan = await planOf(
      openapi({
        '/replays/{replay_id}': {
          get: {
            parameters: [
              { name: 'replay_id', in: 'path', required: true, schema: { type: 'string', pattern: '^[0-9a-f]{32}$' } },
              { name: 'filter[name]', in: 'query', schema: { type: 'string', maxLength: 10, example: 'abc' } },
              { name: 'since', in: 'query', schema: { type: 'string', format: 'date-time' } },
              { name: 'color', in: 'query', schema: { type: 'string', format: 'hex-color' } },
              { name: 'id', in: 'query', schema: { type: 'integer', format: 'int32', minimum: 1 } },
              { name: 'id', in: 'header', schema: { type: 'string', enum: ['a', 'b'] } },
            ],
            responses: ok,
          },
        },
      }),
    );
    const schema = actionOf(plan, 'GET /replays/{replay_id}').argumentsSchema;
    expect(schema).toEqual({
      properties: {
        replay_id: { type: 'string', pattern: '^[0-9a-f]{32}$', examples: ['00000000000000000000000000000000'] },
        filter_name: { type: 'string', maxLength: 10 },
        since: { type: 'string', format: 'date-time' },
        // Only the formats the server checks stay; `hex-color` has no agreed rule, and the type alone is the input schema's.
        id: { type: 'integer', minimum: 1, format: 'int32' },
        header_id: { type: 'string', enum: ['a', 'b'] },
      },
    });
  });

  it('share named schemas once, recursive ones included, and follow the description into nested bodies', async () => {
    const plan = await planOf(
      openapi(
        {
          '/hooks': {
            post: {
              requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/Hook' } } } },
              responses: ok,
            },
          },
        },
        {
          Hook: {
            type: 'object',
            required: ['config', 'id'],
            properties: {
              id: { type: 'string', readOnly: true },
              config: { $ref: '#/components/schemas/Config' },
              tree: { $ref: '#/components/schemas/Node' },
            },
          },
          Config: {
            type: 'object',
            required: ['url', 'created'],
            additionalProperties: false,
            properties: {
              url: { type: 'string', format: 'uri', description: 'Where to send.' },
              created: { type: 'string', readOnly: true },
              secret: { type: 'string', writeOnly: true, minLength: 8 },
            },
          },
          Node: { type: 'object', properties: { child: { $ref: '#/components/schemas/Node' }, name: { type: 'string', nullable: true } } },
          Unused: { type: 'object', properties: { x: { type: 'string' } } },
        },
      ),
    );
    expect(actionOf(plan, 'POST /hooks').argumentsSchema).toEqual({
      properties: { config: { $ref: '#/$defs/Config' }, tree: { $ref: '#/$defs/Node' } },
    });
    expect(plan.argumentDefs).toEqual({
      // readOnly fields are neither required nor checked; writeOnly ones are request fields like any other.
      Config: {
        type: 'object',
        properties: { created: true, secret: { type: 'string', minLength: 8 }, url: { type: 'string', format: 'uri' } },
        required: ['url'],
        additionalProperties: false,
      },
      Node: { type: 'object', properties: { child: { $ref: '#/$defs/Node' }, name: { type: ['string', 'null'] } } },
    });
  });

  it('check unions as anyOf, and never let a closed allOf part refuse the other parts', async () => {
    const plan = await planOf(
      openapi(
        {
          '/pets': {
            put: {
              requestBody: {
                required: true,
                content: { 'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/Pet' } } } },
              },
              responses: ok,
            },
          },
        },
        {
          Pet: { oneOf: [{ $ref: '#/components/schemas/Cat' }, { $ref: '#/components/schemas/Dog' }] },
          Base: { type: 'object', properties: { name: { type: 'string' } }, additionalProperties: false },
          Cat: {
            allOf: [
              { $ref: '#/components/schemas/Base' },
              { type: 'object', properties: { lives: { type: 'integer' } }, additionalProperties: false },
            ],
          },
          Dog: {
            type: 'object',
            allOf: [{ $ref: '#/components/schemas/Base' }],
            properties: { bark: { type: 'boolean' } },
            additionalProperties: false,
          },
        },
      ),
    );
    expect(actionOf(plan, 'PUT /pets').argumentsSchema).toEqual({
      properties: { request_body: { type: 'array', items: { $ref: '#/$defs/Pet' } } },
    });
    expect(plan.argumentDefs).toEqual({
      Base: { type: 'object', properties: { name: { type: 'string' } } },
      Cat: { allOf: [{ $ref: '#/$defs/Base' }, { type: 'object', properties: { lives: { type: 'integer' } } }] },
      Dog: { type: 'object', properties: { bark: { type: 'boolean' } }, allOf: [{ $ref: '#/$defs/Base' }], unevaluatedProperties: false },
      Pet: { anyOf: [{ $ref: '#/$defs/Cat' }, { $ref: '#/$defs/Dog' }] },
    });
  });

  it('show no closed union that admits only {} in the input schema, as a closed anyOf reads literally (LinQR)', async () => {
    const card = (encoding: string, name: string) => ({
      type: 'object',
      required: [name],
      additionalProperties: false,
      properties: { encoding: { type: 'string', enum: [encoding] }, [name]: { type: 'string' } },
    });
    const plan = await planOf(
      openapi(
        {
          '/qrcode/contact': {
            post: {
              requestBody: {
                content: {
                  'application/json': {
                    schema: {
                      type: 'object',
                      additionalProperties: false,
                      properties: { data: { $ref: '#/components/schemas/ContactData' } },
                    },
                  },
                },
              },
              responses: ok,
            },
          },
        },
        {
          ContactData: {
            additionalProperties: false,
            anyOf: [{ $ref: '#/components/schemas/VCard' }, { $ref: '#/components/schemas/MeCard' }],
          },
          VCard: card('vcard', 'last_name'),
          MeCard: card('mecard', 'name'),
        },
      ),
    );
    const ajv = new Ajv2020({ strict: false });
    const input = ajv.compile(plan.tools[0]!.inputSchema as object);
    expect(input({ data: { encoding: 'vcard', last_name: 'Doe' } }), JSON.stringify(input.errors)).toBe(true);
    expect(input({ data: { encoding: 'mecard', name: 'Doe' } }), JSON.stringify(input.errors)).toBe(true);
    // The server's own check still closes the union, as its author meant.
    expect(plan.argumentDefs?.['ContactData']).toMatchObject({ unevaluatedProperties: false });
  });

  it('read a format next to an enum as an alternative to it, as descriptions mean it', async () => {
    const plan = await planOf(
      openapi({
        '/sends/{id}/schedule': {
          put: {
            parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
            requestBody: {
              required: true,
              content: {
                'application/json': {
                  schema: {
                    type: 'object',
                    required: ['send_at'],
                    // SendGrid: "must be in future, or the string now" — as written, no value is both.
                    properties: { send_at: { type: 'string', format: 'date-time', enum: ['now'] } },
                  },
                },
              },
            },
            responses: ok,
          },
        },
      }),
    );
    expect(actionOf(plan, 'PUT /sends/{id}/schedule').argumentsSchema).toEqual({
      properties: { send_at: { type: 'string', anyOf: [{ enum: ['now'] }, { format: 'date-time' }] } },
    });
  });

  it('state the rules of a flattened body that no single argument carries', async () => {
    const plan = await planOf(
      openapi({
        '/labels': {
          patch: {
            requestBody: {
              content: {
                'application/json': {
                  schema: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, color: { type: 'string' } } },
                },
              },
            },
            responses: ok,
          },
        },
        '/files': {
          post: {
            requestBody: {
              required: true,
              content: {
                'application/json': {
                  schema: {
                    type: 'object',
                    properties: {
                      file_ids: { type: 'array', items: { type: 'string' } },
                      files: { type: 'array', items: { type: 'string' } },
                    },
                    anyOf: [{ required: ['file_ids'] }, { required: ['files'] }],
                  },
                },
              },
            },
            responses: ok,
          },
        },
      }),
    );
    // An optional body's required field is required once any field is sent (the server then sends a body).
    expect(actionOf(plan, 'PATCH /labels').argumentsSchema).toEqual({ dependentRequired: { color: ['name'] } });
    expect(actionOf(plan, 'POST /files').argumentsSchema).toEqual({
      properties: { file_ids: { type: 'array', items: { type: 'string' } }, files: { type: 'array', items: { type: 'string' } } },
      anyOf: [{ required: ['file_ids'] }, { required: ['files'] }],
    });
  });

  it('convert a schema object once per use (whole or allOf part), and share the view unchanged', () => {
    const schemas = { Base: { type: 'object', properties: { id: { type: 'string' } }, additionalProperties: false } };
    const shared = { type: 'object', properties: { name: { type: 'string', maxLength: 3 } }, additionalProperties: false };
    const view = new ValidationView(schemas);
    const whole = view.convert(shared);
    expect(view.convert(shared)).toBe(whole);
    expect(view.convert({ ...shared })).not.toBe(whole);
    const part = view.convert(shared, true);
    expect(part).not.toHaveProperty('additionalProperties');
    expect(whole).toHaveProperty('additionalProperties', false);
    expect(view.convert({ allOf: [{ $ref: '#/$defs/Base' }, shared] })).toEqual({ allOf: [{ $ref: '#/$defs/Base' }, part] });
    expect([...view.composed]).toEqual(['Base']);
  });
});

describe('argument schemas made when first read', () => {
  const pets = () =>
    openapi(
      {
        '/pets': {
          put: {
            requestBody: {
              required: true,
              content: { 'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/Cat' } } } },
            },
            responses: ok,
          },
        },
        '/pets/{id}': {
          get: { parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string', pattern: '^p' } }], responses: ok },
        },
      },
      {
        Base: { type: 'object', properties: { name: { type: 'string', minLength: 1 } }, additionalProperties: false },
        Cat: { allOf: [{ $ref: '#/components/schemas/Base' }, { type: 'object', properties: { lives: { type: 'integer' } } }] },
      },
    );

  it('are not made by planning, and an action’s is made on its own', async () => {
    const convert = vi.spyOn(ValidationView.prototype, 'convertArgument');
    try {
      const plan = await planOf(pets());
      expect(convert).not.toHaveBeenCalled();
      expect(actionOf(plan, 'GET /pets/{id}').argumentsSchema).toEqual({
        properties: { id: { type: 'string', pattern: '^p', examples: ['p'] } },
      });
      expect(convert).toHaveBeenCalledTimes(1);
    } finally {
      convert.mockRestore();
    }
  });

  it('are the same whichever is read first, and a plan’s JSON holds them', async () => {
    const actionsFirst = await planOf(pets());
    const actions = actionsFirst.tools.flatMap((tool) => tool.actions.map((action) => action.argumentsSchema));
    const defsFirst = await planOf(pets());
    const defs = defsFirst.argumentDefs;
    expect(defsFirst.tools.flatMap((tool) => tool.actions.map((action) => action.argumentsSchema))).toEqual(actions);
    expect(actionsFirst.argumentDefs).toEqual(defs);
    expect(defs).toEqual({
      Base: { type: 'object', properties: { name: { type: 'string', minLength: 1 } } },
      Cat: { allOf: [{ $ref: '#/$defs/Base' }, { type: 'object', properties: { lives: { type: 'integer' } } }] },
    });
    const written = JSON.parse(JSON.stringify(await planOf(pets()))) as typeof defsFirst;
    expect(written.argumentDefs).toEqual(defs);
    expect(written.tools.flatMap((tool) => tool.actions.map((action) => action.argumentsSchema))).toEqual(actions);
  });
});
