import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, rm, symlink } from 'node:fs/promises';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { runGenerate, type GenerateRunOptions, type GenerateRunResult } from '../../src/pipeline.js';
import { REPO_ROOT, TMP } from './paths.js';

/** A fresh folder under test/.tmp for one test's output. */
export async function tempDir(name: string): Promise<string> {
  const dir = path.join(TMP, `${name}-${process.pid}-${Math.random().toString(36).slice(2, 8)}`);
  await rm(dir, { recursive: true, force: true });
  await mkdir(path.dirname(dir), { recursive: true });
  return dir;
}

/** Generates a project and fails loudly with the diagnostics when generation fails. */
export async function generateProject(options: GenerateRunOptions): Promise<GenerateRunResult> {
  const result = await runGenerate(options);
  if (!result.ok)
    throw new Error(
      `generation failed:\n${result.diagnostics.map((d) => `${d.severity} ${d.code} ${d.message} ${d.pointer ?? ''}`).join('\n')}`,
    );
  return result;
}

/**
 * Makes a generated project use this repository's installed packages (the same versions its package.json pins),
 * so tests build many projects without an npm install each; a few tests do the real install.
 */
export async function linkDependencies(dir: string): Promise<void> {
  await symlink(path.join(REPO_ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir').catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'EEXIST') throw error;
  });
}

export type CommandResult = { code: number; stdout: string; stderr: string };

export function run(
  command: string,
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; input?: string; timeoutMs?: number },
): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: { ...process.env, ...options.env }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 300_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, stdout, stderr });
    });
    // A command may exit before reading all of its input (mkdir, --version, a size limit): the pipe closes first.
    child.stdin.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') reject(error);
    });
    child.stdin.end(options.input ?? '');
  });
}

/**
 * The project's `npm run build` with this repository's packages: `tsc -p`, then the bundle into dist/main.js that
 * users run; throws with the tool's output on errors.
 */
export async function buildProject(dir: string): Promise<void> {
  const result = await run(process.execPath, [path.join(REPO_ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], {
    cwd: dir,
  });
  if (result.code !== 0) throw new Error(`tsc failed in ${dir}:\n${result.stdout}${result.stderr}`);
  const bundled = await run(process.execPath, [path.join(REPO_ROOT, 'node_modules/rolldown/bin/cli.mjs'), '-c', 'rolldown.config.mjs'], {
    cwd: dir,
  });
  if (bundled.code !== 0) throw new Error(`rolldown failed in ${dir}:\n${bundled.stdout}${bundled.stderr}`);
}

/** The generated project's own test suite (`npm test`), run with the linked vitest. */
export async function runProjectTests(dir: string): Promise<CommandResult> {
  return run(process.execPath, [path.join(dir, 'node_modules/vitest/vitest.mjs'), 'run', '--reporter=dot'], {
    cwd: dir,
    timeoutMs: 300_000,
  });
}

export async function connectStdio(dir: string, env: Record<string, string>): Promise<Client> {
  const client = new Client({ name: 'openapi-to-mcp-tests', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [path.join(dir, 'dist/main.js')],
      env: { PATH: process.env['PATH'] ?? '', ...env },
      stderr: 'pipe',
    }),
  );
  return client;
}

export type HttpServer = { url: string; process: ChildProcess; stderr: () => string; stop: () => Promise<void> };

/** Starts `node dist/main.js --http --port 0` and waits for the line that names its address. */
export async function startHttpServer(dir: string, env: Record<string, string>, extraArgs: string[] = []): Promise<HttpServer> {
  const child = spawn(process.execPath, [path.join(dir, 'dist/main.js'), '--http', '--port', '0', ...extraArgs], {
    cwd: dir,
    env: { PATH: process.env['PATH'] ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${stderr}`)), 20_000);
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(stderr);
      if (match) {
        clearTimeout(timer);
        resolve(match[1] as string);
      }
    });
    child.on('exit', (code) => reject(new Error(`server exited with ${code}:\n${stderr}`)));
  });
  return {
    url,
    process: child,
    stderr: () => stderr,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

export async function connectHttp(url: string): Promise<Client> {
  const client = new Client({ name: 'openapi-to-mcp-tests', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

export function textOf(result: { content?: unknown }): string {
  return ((result.content ?? []) as Array<{ type: string; text?: string }>).map((block) => block.text ?? '').join('\n');
}
