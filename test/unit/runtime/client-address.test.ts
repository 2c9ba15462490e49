import { describe, expect, it } from 'vitest';
import { loadSettings, parseFlags } from '../../../templates/runtime/config/settings.js';
import { clientAddress } from '../../../templates/runtime/serving/client-address.js';

describe('the address a request came from', () => {
  it('is the connection’s own when no proxy is trusted, whatever X-Forwarded-For says', () => {
    expect(clientAddress('10.0.0.5', '203.0.113.7', 0)).toBe('10.0.0.5');
    expect(clientAddress(undefined, '203.0.113.7', 0)).toBeUndefined();
  });

  it('is the entry the farthest trusted proxy appended, not what the client wrote to its left', () => {
    // The client wrote 192.0.2.1; the outer proxy appended 203.0.113.7; the balancer (10.0.0.2) connects.
    expect(clientAddress('10.0.0.2', '192.0.2.1, 203.0.113.7', 1)).toBe('203.0.113.7');
    expect(clientAddress('10.0.0.2', '192.0.2.1, 203.0.113.7, 10.0.0.9', 2)).toBe('203.0.113.7');
    expect(clientAddress('10.0.0.2', ' 203.0.113.7 ,, ', 1)).toBe('203.0.113.7');
  });

  it('is the leftmost address there is when fewer proxies appended than trusted', () => {
    expect(clientAddress('10.0.0.2', undefined, 2)).toBe('10.0.0.2');
    expect(clientAddress('10.0.0.2', '203.0.113.7', 3)).toBe('203.0.113.7');
    expect(clientAddress(undefined, '', 1)).toBeUndefined();
  });

  it('trusts as many proxies as TRUSTED_PROXY_HOPS says, refusing what is not a small whole number', () => {
    const http = (env: Record<string, string>) => loadSettings(parseFlags(['--http']), env).http;
    expect(http({})?.trustedProxyHops).toBe(0);
    expect(http({ FIXTURE_TRUSTED_PROXY_HOPS: '2' })?.trustedProxyHops).toBe(2);
    for (const value of ['-1', '1.5', 'two', '11'])
      expect(() => http({ FIXTURE_TRUSTED_PROXY_HOPS: value })).toThrow(/FIXTURE_TRUSTED_PROXY_HOPS must be a whole number from 0 to 10/);
  });
});
