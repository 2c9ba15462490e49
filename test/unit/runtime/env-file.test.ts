import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadEnvFile } from '../../../templates/runtime/config/env-file.js';

describe('.env files', () => {
  it('set variables the environment lacks, never override, and ignore a missing file', () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'env-')), '.env');
    writeFileSync(file, '# comment\nAPI_TOKEN=from-file\nAPI_BASE_URL="https://example.com/v1"\nEMPTY=\n');
    const env: NodeJS.ProcessEnv = { API_TOKEN: 'from-client' };
    expect(loadEnvFile(file, env)).toEqual(['API_BASE_URL', 'EMPTY']);
    expect(env).toEqual({ API_TOKEN: 'from-client', API_BASE_URL: 'https://example.com/v1', EMPTY: '' });
    expect(loadEnvFile(path.join(tmpdir(), 'no-such-dir', '.env'), env)).toEqual([]);
  });
});
