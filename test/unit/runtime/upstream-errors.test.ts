import { describe, expect, it } from 'vitest';
import type { UpstreamResponse } from '../../../templates/runtime/requests/http.js';
import { httpErrorResult } from '../../../templates/runtime/results/upstream-errors.js';
import type { ActionRoute, ArgumentRoute } from '../../../templates/runtime/core/types.js';

function response(status: number, body: unknown): UpstreamResponse {
  return {
    status,
    statusText: '',
    headers: new Headers({ 'content-type': 'application/json' }),
    body: Buffer.from(JSON.stringify(body)),
    truncated: false,
    url: new URL('https://api.example.com/employees/7'),
  };
}

const argument = (arg: string, where: 'path' | 'query' | 'header'): ArgumentRoute => ({
  arg,
  in: where,
  name: arg,
  style: where === 'query' ? 'form' : 'simple',
  explode: where === 'query',
});

/** A payroll API: the firm travels as a header, the employee in the path. */
const route: ActionRoute = {
  operationId: 'getEmployee',
  method: 'get',
  path: '/employees/{employee_id}',
  arguments: [argument('firm_id', 'header'), argument('employee_id', 'path'), argument('expand', 'query')],
  required: ['firm_id', 'employee_id'],
  security: [],
  accepts: [],
};
const context = { toolName: 'employees_read', actionName: 'get', route, siblings: ['get', 'list'] };
const textOf = (result: { content: Array<{ type: string; text?: string }> }) => result.content.map((block) => block.text ?? '').join(' ');

describe('a 404 from the API', () => {
  it('names every argument that identifies what was asked for, a header one too, and how to find the right value', () => {
    const text = textOf(httpErrorResult(response(404, { message: 'Not found' }), context));
    expect(text).toContain('one of firm_id, employee_id names nothing the API knows');
    expect(text).not.toContain('expand');
    expect(text).toContain('by listing with action list first');
  });

  it('names the argument the API’s answer points at, and only that one', () => {
    const text = textOf(httpErrorResult(response(404, { errors: [{ field: 'firm_id', message: 'unknown firm' }] }), context));
    expect(text).toContain('the API points at firm_id; check its value');
    expect(text).not.toContain('one of firm_id, employee_id');
  });
});
