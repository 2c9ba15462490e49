import { describe, expect, it } from 'vitest';
import { makeHandle, openHandle } from '../../../templates/runtime/calls/operation-handles.js';
import { fullAnswerLink, parseResultLink, resultLinkUri } from '../../../templates/runtime/results/result-link.js';
import type { Settings } from '../../../templates/runtime/config/settings.js';
import type { ToolDefinition } from '../../../templates/runtime/core/types.js';

const tool = (readOnlyHint: boolean): ToolDefinition => ({
  name: 'issues_read',
  title: 'Issues',
  description: '',
  annotations: { readOnlyHint },
  inputSchema: { type: 'object' },
  actions: {},
});

describe('result links', () => {
  it('name the request in the URI and read back exactly what they name', () => {
    const args = { owner: 'a/b', q: 'é & ?', nested: { list: [1, null] } };
    const uri = resultLinkUri({ tool: 'issues_read', action: 'list', arguments: args });
    expect(uri.startsWith('openapi-result://results/issues_read/list?arguments=')).toBe(true);
    expect(parseResultLink(new URL(uri))).toEqual({ tool: 'issues_read', action: 'list', arguments: args });
    // A single-action tool's one action is `-` in the URI.
    const single = resultLinkUri({ tool: 'issues_read', action: '', arguments: {} });
    expect(parseResultLink(new URL(single))).toEqual({ tool: 'issues_read', action: '', arguments: {} });
  });

  it('refuse URIs they did not make', () => {
    for (const uri of [
      'openapi-result://elsewhere/issues_read/list',
      'openapi-result://results/issues_read',
      'openapi-result://results/issues_read/list/more',
      'openapi-result://results/issues_read/list?arguments=[1]',
      'openapi-result://results/issues_read/list?arguments=%7B',
      'https://results/issues_read/list',
    ])
      expect(parseResultLink(new URL(uri)), uri).toHaveProperty('problem');
  });

  it('are offered for reads only, with the action in the path and not among the arguments', () => {
    expect(fullAnswerLink(tool(false), 'create', { action: 'create' })).toBeUndefined();
    const [link, words] = fullAnswerLink(tool(true), 'list', { action: 'list', state: 'open' })?.(1234, 'application/json') ?? [];
    expect(link).toMatchObject({ type: 'resource_link', mimeType: 'application/json', size: 1234 });
    expect(parseResultLink(new URL((link as { uri: string }).uri))).toEqual({
      tool: 'issues_read',
      action: 'list',
      arguments: { state: 'open' },
    });
    expect(words).toMatchObject({ type: 'text', text: expect.stringContaining('1,234 bytes') });
    expect(fullAnswerLink(tool(true), 'list', { q: 'x'.repeat(9_000) })).toBeUndefined();
  });
});

describe('status handles', () => {
  const keys = (...bytes: number[]): Settings =>
    ({ handleKeys: { keys: bytes.map((byte) => new Uint8Array(32).fill(byte)), source: 'configured' } }) as unknown as Settings;

  it('open only for the tool, action and place they were made for, under any listed key', () => {
    const handle = makeHandle(keys(1), 'jobs_write', 'start', '/jobs/7?view=status');
    expect(handle).toMatch(/^\/jobs\/7\?view=status#[\w-]{22}$/);
    expect(openHandle(keys(1), 'jobs_write', 'start', handle)).toBe('/jobs/7?view=status');
    // Rotated: a newer key first, the old one still listed.
    expect(openHandle(keys(2, 1), 'jobs_write', 'start', handle)).toBe('/jobs/7?view=status');
    expect(openHandle(keys(2), 'jobs_write', 'start', handle)).toBeUndefined();
    expect(openHandle(keys(1), 'jobs_write', 'stop', handle)).toBeUndefined();
    expect(openHandle(keys(1), 'other_write', 'start', handle)).toBeUndefined();
    expect(openHandle(keys(1), 'jobs_write', 'start', handle.replace('/jobs/7', '/admin/7'))).toBeUndefined();
    expect(openHandle(keys(1), 'jobs_write', 'start', '/jobs/7')).toBeUndefined();
  });
});
