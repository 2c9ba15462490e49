import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { REPO_ROOT } from '../helpers/paths.js';

export type Prism = { url: string; log: () => string; stop: () => Promise<void> };

const LAUNCHER = path.join(REPO_ROOT, 'test/contract/prism-server.mjs');
/** Prism's log is long (a few lines per request); only its tail is kept, for failure messages. */
const LOG_LIMIT = 200_000;

/**
 * Starts Stoplight Prism (prism-server.mjs) as a validating mock of a description: every request is checked against the operation it
 * matches (path, query, headers, security, body), and violations come back in the `sl-violations` response header.
 * Resolves with its address, or rejects with Prism's own output when it cannot load the description.
 */
export async function startPrism(specFile: string, timeoutMs = 120_000): Promise<Prism> {
  const port = await freePort();
  const child = spawn(process.execPath, [LAUNCHER, specFile, String(port)], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { PATH: process.env['PATH'] ?? '', NODE_OPTIONS: '--max-old-space-size=4096' },
  });
  let log = '';
  const append = (chunk: Buffer) => {
    log += chunk.toString();
    if (log.length > LOG_LIMIT) log = log.slice(-LOG_LIMIT / 2);
  };
  child.stdout.on('data', append);
  child.stderr.on('data', append);
  await new Promise<void>((resolve, reject) => {
    let settled = false;
    const finish = (error?: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (error) reject(error);
      else resolve();
    };
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      finish(new Error(`Prism did not start within ${timeoutMs} ms:\n${log.slice(-3000)}`));
    }, timeoutMs);
    child.once('exit', (code) => finish(new Error(`Prism exited with ${code} before listening:\n${log.slice(-3000)}`)));
    child.stdout.on('data', () => {
      if (log.includes('Prism is listening')) finish();
    });
  });
  return {
    url: `http://127.0.0.1:${port}`,
    log: () => log,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** A port nobody listens on right now (Prism needs a number; it cannot report the port it picked). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
