import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { stateKeysFor } from '../../../templates/runtime/config/state-keys.js';

const variable = (name: string) => `GITHUB_${name}`;
const keysOf = (use: 'confirmation' | 'handles', env: Record<string, string>) => stateKeysFor(use, (name) => env[name], variable);
const hex = (keys: Uint8Array[]) => keys.map((key) => Buffer.from(key).toString('hex'));

describe('state keys', () => {
  const key = () => randomBytes(32).toString('base64');

  it('serve both uses from one variable, newest first', () => {
    const env = { STATE_KEYS: `${key()},${key()}` };
    const confirmation = keysOf('confirmation', env);
    const handles = keysOf('handles', env);
    expect(confirmation).toMatchObject({ source: 'configured', variable: 'GITHUB_STATE_KEYS' });
    expect(confirmation.keys).toHaveLength(2);
    expect(hex(handles.keys)).toEqual(hex(confirmation.keys));
  });

  it('take the older name of each use, and only for that use', () => {
    const env = { CONFIRM_KEYS: key(), HANDLE_KEYS: key() };
    const confirmation = keysOf('confirmation', env);
    const handles = keysOf('handles', env);
    expect(confirmation.variable).toBe('GITHUB_CONFIRM_KEYS');
    expect(handles.variable).toBe('GITHUB_HANDLE_KEYS');
    expect(hex(confirmation.keys)).not.toEqual(hex(handles.keys));
  });

  it("fall back to the oauth mode's sealing keys, then to one key drawn for the process", () => {
    expect(keysOf('handles', { OAUTH_SEALING_KEYS: key() }).variable).toBe('GITHUB_OAUTH_SEALING_KEYS');
    const drawn = [keysOf('confirmation', {}), keysOf('handles', {})];
    expect(drawn.map((keys) => keys.source)).toEqual(['process', 'process']);
    expect(drawn[0]?.keys[0]).toHaveLength(32);
    // One process, one key: what one use of a single replica accepts, the other does too.
    expect(hex(drawn[1]?.keys ?? [])).toEqual(hex(drawn[0]?.keys ?? []));
  });

  it('refuse the new and the older name set together, and keys that could be guessed, naming the variable', () => {
    expect(() => keysOf('confirmation', { STATE_KEYS: key(), CONFIRM_KEYS: key() })).toThrow(
      'GITHUB_STATE_KEYS and GITHUB_CONFIRM_KEYS are both set',
    );
    // The other use's older name does not conflict with this use.
    expect(keysOf('confirmation', { STATE_KEYS: key(), HANDLE_KEYS: key() }).variable).toBe('GITHUB_STATE_KEYS');
    expect(() => keysOf('handles', { STATE_KEYS: 'secret' })).toThrow('GITHUB_STATE_KEYS: key 1 is not 32 bytes');
  });
});
