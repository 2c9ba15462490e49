import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';

/**
 * A real Redis server (Debian's `redis-server`; `.ci/run` installs it when missing) on a free port of 127.0.0.1,
 * keeping nothing on disk, stopped by `close`.
 */
export type RedisServer = { url: string; process: ChildProcess; close(): Promise<void> };

const BINARY = ['/usr/bin/redis-server', '/usr/bin/valkey-server'].find((candidate) => existsSync(candidate));

export async function startRedis(): Promise<RedisServer> {
  if (!BINARY) throw new Error('redis-server is not installed: apt-get install redis-server (.ci/run does so when it is missing)');
  const port = await freePort();
  const child = spawn(BINARY, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`redis-server did not start:\n${output}`)), 20_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      if (/Ready to accept connections/.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.on('exit', (code) => reject(new Error(`redis-server exited with ${code}:\n${output}`)));
  });
  return {
    url: `redis://127.0.0.1:${port}`,
    process: child,
    close: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

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
