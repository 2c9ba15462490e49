import { describe, expect, it } from 'vitest';
import { redact } from '../../../templates/runtime/core/redact.js';

describe('redact (error texts and logs)', () => {
  it('replaces what has the shape of a credential after an auth scheme or a credential field', () => {
    const header = redact('Authorization: Bearer eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJhIn0.c2ln');
    expect(header).toMatch(/^Authorization: \[redacted\]/);
    expect(header).not.toContain('eyJ');
    expect(redact('sent Basic dXNlcjpwYXNz to the API')).toBe('sent Basic [redacted] to the API');
    expect(redact('header Token 0f3a9c2e71bd')).toBe('header Token [redacted]');
    expect(redact('{"api_key": "sk_live_abc123"}')).toBe('{"api_key": "[redacted]"}');
    expect(redact('echoed password=hunter2hunter2&x=1')).toBe('echoed password=[redacted]&x=1');
  });

  it('leaves the prose of its own messages readable', () => {
    const line = 'token endpoint http://127.0.0.1:9/token answered with something this server does not accept';
    expect(redact(line)).toBe(line);
    expect(redact('the provider offers basic authentication only')).toBe('the provider offers basic authentication only');
    expect(redact('Digest mismatch in the answer')).toBe('Digest mismatch in the answer');
  });
});
