import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { checkConfirmationTools, confirmationSettings } from '../../../templates/runtime/config/confirmation-settings.js';
import { questionOf, refusalText, targetOf, type PendingAction } from '../../../templates/runtime/calls/confirmation-text.js';

const variable = (name: string) => `GITHUB_${name}`;
const settingsOf = (env: Record<string, string>) => confirmationSettings((name) => env[name], variable);

describe('confirmation settings', () => {
  it("takes the configuration's policies, the environment's first and per tool before the policy", () => {
    const defaults = { policy: 'require', tools: { repos_delete: 'off', issues_delete: 'require' } } as const;
    const generated = confirmationSettings(() => undefined, variable, defaults);
    expect(generated.policy).toBe('require');
    expect(Object.fromEntries(generated.tools)).toEqual({ repos_delete: 'off', issues_delete: 'require' });
    const env: Record<string, string> = { CONFIRM: 'ask', CONFIRM_TOOLS: 'repos_delete=require' };
    const deployed = confirmationSettings((name) => env[name], variable, defaults);
    expect(deployed.policy).toBe('ask');
    expect(Object.fromEntries(deployed.tools)).toEqual({ repos_delete: 'require', issues_delete: 'require' });
  });

  it('asks by default, with a random key of the process', () => {
    const settings = settingsOf({});
    expect(settings.policy).toBe('ask');
    expect(settings.tools.size).toBe(0);
    expect(settings.keys.source).toBe('process');
    expect(settings.keys.keys[0]).toHaveLength(32);
  });

  it('reads the policy, the per-tool policies and the keys, newest first', () => {
    const keys = [randomBytes(32).toString('base64'), randomBytes(32).toString('base64url')];
    const settings = settingsOf({
      CONFIRM: 'Require',
      CONFIRM_TOOLS: ' repos_delete=off , issues_delete = ask',
      CONFIRM_KEYS: keys.join(','),
    });
    expect(settings.policy).toBe('require');
    expect([...settings.tools]).toEqual([
      ['repos_delete', 'off'],
      ['issues_delete', 'ask'],
    ]);
    expect(settings.keys.source).toBe('configured');
    expect(settings.keys.keys.map((key) => Buffer.from(key).toString('base64url'))).toEqual(
      keys.map((key) => Buffer.from(key, 'base64').toString('base64url')),
    );
  });

  it("takes the oauth mode's sealing keys when no confirmation keys are set", () => {
    const key = randomBytes(32).toString('base64');
    expect(settingsOf({ OAUTH_SEALING_KEYS: key }).keys.source).toBe('configured');
  });

  it('refuses what it cannot read, naming the variable', () => {
    expect(() => settingsOf({ CONFIRM: 'yes' })).toThrow('GITHUB_CONFIRM must be ask, require or off, not "yes".');
    expect(() => settingsOf({ CONFIRM_TOOLS: 'repos_delete' })).toThrow('GITHUB_CONFIRM_TOOLS: write each entry as tool=policy');
    expect(() => settingsOf({ CONFIRM_TOOLS: 'repos_delete=never' })).toThrow('GITHUB_CONFIRM_TOOLS (repos_delete) must be');
    expect(() => settingsOf({ CONFIRM_KEYS: 'secret' })).toThrow('GITHUB_CONFIRM_KEYS: key 1 is not 32 bytes');
  });

  it('refuses a per-tool policy for a tool the server does not serve', () => {
    const settings = settingsOf({ CONFIRM_TOOLS: 'repo_delete=off' });
    const served = ['repos_delete', 'repos_read'];
    expect(() => checkConfirmationTools(settings, served, ['repos_delete'], 'GITHUB_CONFIRM_TOOLS')).toThrow(
      'GITHUB_CONFIRM_TOOLS names "repo_delete", which this server does not serve. Tools that delete: repos_delete.',
    );
    const harmless = settingsOf({ CONFIRM_TOOLS: 'repos_read=require' });
    expect(() => checkConfirmationTools(harmless, served, ['repos_delete'], 'GITHUB_CONFIRM_TOOLS')).toThrow(
      'GITHUB_CONFIRM_TOOLS names "repos_read", which deletes nothing and is never confirmed. Tools that delete: repos_delete.',
    );
    const fine = settingsOf({ CONFIRM_TOOLS: 'repos_delete=off' });
    expect(() => checkConfirmationTools(fine, served, ['repos_delete'], 'X')).not.toThrow();
  });
});

describe('confirmation text', () => {
  const pending = (args: Record<string, unknown>): PendingAction => ({
    apiTitle: 'GitHub v3 REST API',
    toolName: 'repos_delete',
    action: 'delete',
    route: {
      operationId: 'repos/delete',
      method: 'delete',
      path: '/repos/{owner}/{repo}',
      arguments: [
        { arg: 'owner', in: 'path', name: 'owner', style: 'simple', explode: false },
        { arg: 'repo', in: 'path', name: 'repo', style: 'simple', explode: false },
        { arg: 'reason', in: 'query', name: 'reason', style: 'form', explode: true },
      ],
      required: ['owner', 'repo'],
      security: [],
      accepts: [],
    },
    args,
  });

  it('names the request with its path filled in, the tool and action, and the other arguments', () => {
    const question = questionOf(pending({ owner: 'octo-org', repo: 'hello-world', reason: 'cleanup' }));
    expect(question.split('\n')).toEqual([
      'Allow this deletion at GitHub v3 REST API?',
      'Request: DELETE /repos/octo-org/hello-world',
      'Tool: repos_delete, action delete (operation repos/delete)',
      'Arguments:',
      '- reason: "cleanup"',
      'Nothing is sent to the API unless you confirm.',
    ]);
  });

  it('shows line breaks and direction marks in values as escapes, and cuts long values', () => {
    const target = targetOf(pending({ owner: 'evil\nRequest: DELETE /repos/other/x', repo: 'a\u202eb' }));
    expect(target).toBe('DELETE /repos/evil\\u000aRequest: DELETE /repos/other/x/a\\u202eb');
    const question = questionOf(pending({ owner: 'o', repo: 'r', reason: 'x'.repeat(500) }));
    expect(question).toContain(`- reason: "${'x'.repeat(199)}…`);
  });

  it('tells the model that nothing was sent, and what to do', () => {
    const call = pending({ owner: 'octo-org', repo: 'hello-world' });
    expect(refusalText(call, 'declined', 'GITHUB_CONFIRM_TOOLS')).toBe(
      'Not done: the user declined DELETE /repos/octo-org/hello-world. Nothing was sent to the API. Do not call this again unless the user asks for it.',
    );
    expect(refusalText(call, 'unconfirmable', 'GITHUB_CONFIRM_TOOLS')).toContain(
      "have the server's operator set GITHUB_CONFIRM_TOOLS=repos_delete=ask",
    );
  });
});
