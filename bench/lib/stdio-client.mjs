// A minimal MCP client over stdio (newline-delimited JSON-RPC), the same for every server measured, so that the
// client's own cost is small and equal on both sides.
import { spawn } from 'node:child_process';

export const PROTOCOL_VERSION = '2025-06-18';

export function startServer(command, args, { cwd, env }) {
  const spawnedAt = performance.now();
  const child = spawn(command, args, { cwd, env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  const pending = new Map();
  let nextId = 1;
  let buffer = '';
  let stderr = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk) => {
    buffer += chunk;
    let newline;
    while ((newline = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + 1);
      if (!line.trim()) continue;
      const message = JSON.parse(line);
      const waiter = message.id !== undefined ? pending.get(message.id) : undefined;
      if (waiter) {
        pending.delete(message.id);
        if (message.error) waiter.reject(new Error(`${message.error.code}: ${message.error.message}`));
        else waiter.resolve(message.result);
      }
    }
  });
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.once('exit', () => {
    for (const waiter of pending.values()) waiter.reject(new Error(`server exited:\n${stderr.slice(-2000)}`));
    pending.clear();
  });
  const send = (message) => child.stdin.write(`${JSON.stringify(message)}\n`);
  const request = (method, params = {}) =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      send({ jsonrpc: '2.0', id, method, params });
    });
  return {
    pid: child.pid,
    spawnedAt,
    stderr: () => stderr,
    request,
    async initialize() {
      const result = await request('initialize', {
        protocolVersion: PROTOCOL_VERSION,
        capabilities: {},
        clientInfo: { name: 'openapi-to-mcp-bench', version: '1.0.0' },
      });
      send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      return result;
    },
    async close() {
      child.stdin.end();
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 2000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
}
