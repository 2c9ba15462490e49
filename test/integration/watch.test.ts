import { execFileSync, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, TMP, fixtureSpec } from '../helpers/paths.js';

/** The real bin with --watch, its output collected, and a way to wait for a line of it. */
class Watch {
  readonly child: ChildProcessWithoutNullStreams;
  stdout = '';
  stderr = '';
  private readonly exited: Promise<number | null>;

  constructor(args: string[], cwd: string) {
    this.child = spawn(process.execPath, [BIN, ...args, '--watch'], { cwd, env: { ...process.env, NO_COLOR: '1' } });
    this.child.stdout.on('data', (chunk: Buffer) => (this.stdout += chunk.toString()));
    this.child.stderr.on('data', (chunk: Buffer) => (this.stderr += chunk.toString()));
    this.exited = new Promise((resolve) => this.child.on('close', resolve));
  }

  /** Waits until `pattern` has matched `count` times in the stream. */
  async until(pattern: RegExp, count = 1, stream: 'stdout' | 'stderr' = 'stderr'): Promise<void> {
    const deadline = Date.now() + 30_000;
    const global = new RegExp(pattern.source, `${pattern.flags}g`);
    while ((this[stream].match(global) ?? []).length < count) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${pattern} (${count}×); stderr:\n${this.stderr}`);
      if (this.child.exitCode !== null) throw new Error(`exited ${this.child.exitCode} before ${pattern}; stderr:\n${this.stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** Ctrl-C, then the exit code. */
  stop(): Promise<number | null> {
    this.child.kill('SIGINT');
    return this.exited;
  }

  exit(): Promise<number | null> {
    return this.exited;
  }
}

const running: Watch[] = [];
afterEach(() => {
  for (const watch of running.splice(0)) watch.child.kill('SIGKILL');
});

function start(args: string[], cwd: string): Watch {
  const watch = new Watch(args, cwd);
  running.push(watch);
  return watch;
}

/**
 * Saves as editors that write safely do, by renaming a complete file over the old one: a file written in place can be
 * read half-written by a run that a loaded machine lets start between the truncation and the write.
 */
function save(file: string, text: string): void {
  const temporary = path.join(path.dirname(file), `.${path.basename(file)}.saving`);
  writeFileSync(temporary, text);
  renameSync(temporary, file);
}

function freshCopy(name: string, source: string): string {
  const dir = path.join(TMP, `watch-${name}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  // A folder's contents, or a file, into the copy.
  cpSync(source, statSync(source).isDirectory() ? dir : path.join(dir, path.basename(source)), { recursive: true });
  return dir;
}

describe('generate --watch (the real bin)', () => {
  it('regenerates when a referenced file changes, keeps the project through a broken save, and stops on Ctrl-C', async () => {
    const dir = freshCopy('multi', fixtureSpec('oai-petstore-separate'));
    const watch = start(['spec/swagger.yaml', '--ref-root', '.', '-o', 'out'], dir);
    await watch.until(/watching spec\/swagger\.yaml and 4 files it refers to for changes/);
    const writeTool = path.join(dir, 'out/src/tools/pets-write.ts');
    expect(readFileSync(writeTool, 'utf8')).not.toContain('Free text about the pet');

    // A file pulled in by a $ref, in the entry's folder.
    const newPet = path.join(dir, 'spec/NewPet.yaml');
    save(newPet, readFileSync(newPet, 'utf8').replace('type: integer', 'type: string\n        description: Free text about the pet'));
    await watch.until(/spec\/NewPet\.yaml changed: generating again/);
    await watch.until(/^generated 3 tools/m, 2);
    expect(readFileSync(writeTool, 'utf8')).toContain('Free text about the pet');

    // A save that leaves the content as it was starts no run.
    save(newPet, readFileSync(newPet, 'utf8'));
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(watch.stderr.match(/changed: generating again/g)).toHaveLength(1);

    // A broken entry is reported and leaves the project as it was; fixing it generates again.
    const entry = path.join(dir, 'spec/swagger.yaml');
    const good = readFileSync(entry, 'utf8');
    const lock = readFileSync(path.join(dir, 'out/openapi-to-mcp.lock.json'), 'utf8');
    save(entry, `${good}\n  broken: [unclosed\n`);
    await watch.until(/error\[OTM_PARSE_ERROR\]/);
    expect(readFileSync(path.join(dir, 'out/openapi-to-mcp.lock.json'), 'utf8')).toBe(lock);
    save(entry, good.replace('Swagger Petstore', 'Swagger Petstore, watched'));
    await watch.until(/^generated 3 tools .* for Swagger Petstore, watched$/m);

    expect(await watch.stop()).toBe(0);
    expect(watch.stderr).toMatch(/stopped watching\n$/);
  }, 60_000);

  it('prints one JSON object per line per run with --json', async () => {
    const dir = freshCopy('json', fixtureSpec('oai-petstore.yaml'));
    const watch = start(['oai-petstore.yaml', '-o', 'out', '--json'], dir);
    await watch.until(/\n/, 1, 'stdout');
    const spec = path.join(dir, 'oai-petstore.yaml');
    save(spec, readFileSync(spec, 'utf8').replace('List all pets', 'List every pet'));
    await watch.until(/\n/, 2, 'stdout');
    expect(await watch.stop()).toBe(0);
    const runs = watch.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { ok: boolean; changes: unknown[] });
    expect(runs.map((run) => run.ok)).toEqual([true, true]);
    expect(runs[1]?.changes.length).toBeGreaterThan(0);
    expect(watch.stderr).toBe('');
  }, 60_000);

  it('does not report a failure for a save still being written in place, and runs on the finished file', async () => {
    const dir = freshCopy('in-place', fixtureSpec('oai-petstore.yaml'));
    const watch = start(['oai-petstore.yaml', '-o', 'out', '--json'], dir);
    await watch.until(/\n/, 1, 'stdout');
    // Apart from the first run as a user's save is, so that the watch is waiting for it.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const spec = path.join(dir, 'oai-petstore.yaml');
    const text = readFileSync(spec, 'utf8').replace('List all pets', 'List every pet');
    // Truncated and half written, the rest a moment later (as a slow or loaded writer leaves it): the watch runs on the
    // half file, which fails, but the save goes on before it would report.
    writeFileSync(spec, text.slice(0, text.indexOf('paths:')) + 'paths:\n  /pets: [');
    await new Promise((resolve) => setTimeout(resolve, 150));
    writeFileSync(spec, text);
    await watch.until(/\n/, 2, 'stdout');
    // Nothing more comes: the failed run was dropped, not printed late.
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(await watch.stop()).toBe(0);
    const runs = watch.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { ok: boolean; changes: unknown[] });
    expect(runs.map((run) => run.ok)).toEqual([true, true]);
    expect(runs[1]?.changes.length).toBeGreaterThan(0);
    // The watch wrote the finished save's cache (at the latest as it stopped): a new process is answered from it.
    const again = JSON.parse(
      execFileSync(process.execPath, [BIN, 'oai-petstore.yaml', '-o', 'out', '--json'], { cwd: dir, encoding: 'utf8' }),
    ) as { ok: boolean; timings: { plan: number } };
    expect(again.ok).toBe(true);
    expect(again.timings.plan).toBe(0);
  }, 60_000);

  it('generates again when a configuration file appears in the working directory', async () => {
    const dir = freshCopy('config', fixtureSpec('oai-petstore.yaml'));
    const watch = start(['oai-petstore.yaml', '-o', 'out'], dir);
    await watch.until(/watching oai-petstore\.yaml for changes/);
    expect(existsSync(path.join(dir, 'out/Dockerfile'))).toBe(false);
    save(path.join(dir, 'openapi-to-mcp.config.yaml'), 'deploy: true\n');
    await watch.until(/openapi-to-mcp\.config\.yaml changed: generating again/);
    await watch.until(/^generated /m, 2);
    expect(await watch.stop()).toBe(0);
    expect(existsSync(path.join(dir, 'out/Dockerfile'))).toBe(true);
  }, 60_000);

  it('follows a description whose folder is deleted and made again', async () => {
    const dir = freshCopy('folder', fixtureSpec('oai-petstore.yaml'));
    mkdirSync(path.join(dir, 'api'));
    renameSync(path.join(dir, 'oai-petstore.yaml'), path.join(dir, 'api/spec.yaml'));
    const text = readFileSync(path.join(dir, 'api/spec.yaml'), 'utf8');
    const watch = start(['api/spec.yaml', '-o', 'out'], dir);
    await watch.until(/watching api\/spec\.yaml for changes/);
    rmSync(path.join(dir, 'api'), { recursive: true });
    await watch.until(/error\[OTM_INPUT_UNREADABLE\]/);
    mkdirSync(path.join(dir, 'api'));
    save(path.join(dir, 'api/spec.yaml'), text.replace('List all pets', 'List every pet'));
    await watch.until(/^generated /m, 2);
    expect(readFileSync(path.join(dir, 'out/src/tools/pets-read.ts'), 'utf8')).toContain('list every pet');
    // The folder is watched again, not only polled: a later save is seen as quickly as the first.
    save(path.join(dir, 'api/spec.yaml'), text);
    await watch.until(/^generated /m, 3);
    expect(await watch.stop()).toBe(0);
  }, 60_000);

  it('follows the file a symbolic link to the description points to', async () => {
    const dir = freshCopy('symlink', fixtureSpec('oai-petstore.yaml'));
    mkdirSync(path.join(dir, 'project'));
    symlinkSync(path.join(dir, 'oai-petstore.yaml'), path.join(dir, 'project/spec.yaml'));
    const watch = start(['plan', 'spec.yaml'], path.join(dir, 'project'));
    await watch.until(/watching spec\.yaml for changes/);
    const target = path.join(dir, 'oai-petstore.yaml');
    save(target, readFileSync(target, 'utf8').replace('List all pets', 'List every pet'));
    await watch.until(/oai-petstore\.yaml changed: planning again/);
    await watch.until(/within budget/, 2, 'stdout');
    expect(await watch.stop()).toBe(0);
  }, 60_000);

  it('plan --watch keeps the HTML page current', async () => {
    const dir = freshCopy('plan', fixtureSpec('oai-petstore.yaml'));
    const watch = start(['plan', 'oai-petstore.yaml', '--html', 'plan.html'], dir);
    await watch.until(/watching oai-petstore\.yaml for changes/);
    expect(readFileSync(path.join(dir, 'plan.html'), 'utf8')).not.toContain('List every pet');
    const spec = path.join(dir, 'oai-petstore.yaml');
    save(spec, readFileSync(spec, 'utf8').replace('List all pets', 'List every pet'));
    await watch.until(/oai-petstore\.yaml changed: planning again/);
    await watch.until(/^wrote plan\.html/m, 2);
    expect(readFileSync(path.join(dir, 'plan.html'), 'utf8')).toContain('List every pet');
    expect(watch.stdout.match(/within budget/g)).toHaveLength(2);
    expect(await watch.stop()).toBe(0);
  }, 60_000);

  it.each([
    [['-'], /--watch needs a description file: standard input cannot be watched/],
    [['https://example.com/openapi.json'], /--watch needs a description file: https:\/\/example\.com\/openapi\.json cannot be watched/],
    [[fixtureSpec('oai-petstore.yaml'), '--check'], /--watch and --check do not go together/],
  ])('refuses %j as a usage error', async (args, message) => {
    mkdirSync(TMP, { recursive: true });
    const watch = start(args, TMP);
    expect(await watch.exit()).toBe(2);
    expect(watch.stderr).toMatch(message);
  });
});
