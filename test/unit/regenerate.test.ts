import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runDiff, runGenerate } from '../../src/pipeline.js';
import { recoverInterrupted } from '../../src/write/apply-changes.js';
import { LOCK_FILE, LOCK_VERSION, parseLock } from '../../src/write/lock-file.js';
import { tempDir } from '../helpers/project.js';

const ok = { 200: { description: 'ok', content: { 'application/json': { schema: { type: 'object' } } } } };
const idParam = [{ in: 'path', name: 'id', required: true, schema: { type: 'string' } }];

function spec(paths: Record<string, unknown>, version = '1.0.0'): string {
  return JSON.stringify({ openapi: '3.0.3', info: { title: 'Shop', version }, servers: [{ url: 'https://shop.example.com' }], paths });
}

const v1 = {
  '/orders': {
    get: { operationId: 'listOrders', tags: ['orders'], responses: ok },
    post: { operationId: 'createOrder', tags: ['orders'], responses: ok },
  },
  '/orders/{id}': { get: { operationId: 'getOrder', tags: ['orders'], parameters: idParam, responses: ok } },
  '/customers': { get: { operationId: 'listCustomers', tags: ['customers'], responses: ok } },
};

async function generate(dir: string, paths: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  const file = path.join(dir, '..', `${path.basename(dir)}-spec.json`);
  await writeFile(file, spec(paths));
  return runGenerate({ spec: file, out: dir, ...extra });
}

const readLock = async (dir: string) => parseLock(await readFile(path.join(dir, LOCK_FILE), 'utf8'));
const toolNames = async (dir: string) => Object.keys((await readLock(dir))?.surface.tools ?? {});

/** Rewrites a project's lock file as the generator wrote it before version 2: every argument of every action in full. */
async function downgradeLock(dir: string): Promise<void> {
  const lock = (await readLock(dir))!;
  const v1 = { lockVersion: 1, generator: lock.generator, surface: lock.surface, files: lock.files };
  await writeFile(path.join(dir, LOCK_FILE), `${JSON.stringify(v1, null, 2)}\n`);
}

describe('regeneration', () => {
  it('keeps tool and action names when operations are added, reordered and renamed', async () => {
    const dir = await tempDir('regen-names');
    const first = await generate(dir, v1);
    const before = first.plan!.tools.map(
      (tool) => `${tool.name}:${tool.actions.map((action) => `${action.name}=${action.operation.key}`).join(',')}`,
    );
    const reordered = Object.fromEntries(Object.entries(v1).reverse());
    (reordered['/orders'] as { get: { operationId: string } }).get.operationId = 'listAllOrders';
    const grown = {
      ...reordered,
      '/orders/{id}/items': { get: { operationId: 'listOrderItems', tags: ['orders'], parameters: idParam, responses: ok } },
    };
    const second = await generate(dir, grown);
    expect(second.ok).toBe(true);
    for (const entry of before) {
      const [tool, actions] = entry.split(':') as [string, string];
      const now = second.plan!.tools.find((candidate) => candidate.name === tool);
      expect(now?.name, tool).toBe(tool);
      for (const action of actions.split(',').filter(Boolean)) {
        const [name, key] = action.split('=');
        expect(now!.actions.find((candidate) => candidate.operation.key === key)?.name, key).toBe(name);
      }
    }
    expect(second.diff?.changes.map((change) => change.kind)).toEqual(['action-added']);
  });

  it('renames a tool on purpose, and reports it as breaking', async () => {
    const dir = await tempDir('regen-rename');
    const first = await generate(dir, v1);
    const old = first.plan!.tools.find((tool) => tool.actions.length > 1)!.name;
    const renamed = await generate(dir, v1, { renameTools: { [old]: 'shop_orders_read' } });
    expect(renamed.plan!.tools.map((tool) => tool.name)).toContain('shop_orders_read');
    expect(renamed.diff?.changes).toContainEqual(
      expect.objectContaining({ kind: 'tool-renamed', from: old, tool: 'shop_orders_read', breaking: true }),
    );
    expect(await toolNames(dir)).toContain('shop_orders_read');
  });

  it('renames pinned tools when the prefix changes, keeping their grouping and action names', async () => {
    const dir = await tempDir('regen-prefix');
    const plain = await generate(dir, v1);
    const actionsOf = (plan: typeof plain.plan) =>
      new Map(
        plan!.tools.map((tool) => [
          tool.name.replace(/^(zoo|farm)_/, ''),
          tool.actions.map((action) => `${action.name}=${action.operation.key}`),
        ]),
      );
    expect((await readLock(dir))?.prefix).toBeUndefined();

    const zoo = await generate(dir, v1, { prefix: 'zoo' });
    expect(zoo.ok).toBe(true);
    const names = await toolNames(dir);
    expect(names.length).toBeGreaterThan(1);
    expect(names.every((name) => name.startsWith('zoo_'))).toBe(true);
    expect(zoo.diff?.changes).toContainEqual({ kind: 'tool-renamed', tool: 'zoo_orders_read', from: 'orders_read', breaking: true });
    expect((await readLock(dir))?.prefix).toBe('zoo');
    expect(actionsOf(zoo.plan)).toEqual(actionsOf(plain.plan));

    const farm = await generate(dir, v1, { prefix: 'Farm' });
    expect(farm.plan!.tools.map((tool) => tool.name).every((name) => name.startsWith('farm_'))).toBe(true);
    expect(actionsOf(farm.plan)).toEqual(actionsOf(plain.plan));

    const again = await generate(dir, v1);
    expect(again.plan!.tools.map((tool) => tool.name).sort()).toEqual(plain.plan!.tools.map((tool) => tool.name).sort());
    expect((await readLock(dir))?.prefix).toBeUndefined();
  });

  it('keeps prefixed names from a lock file that predates the recorded prefix', async () => {
    const dir = await tempDir('regen-prefix-legacy');
    const first = await generate(dir, v1, { prefix: 'zoo' });
    const lockFile = path.join(dir, LOCK_FILE);
    await writeFile(lockFile, (await readFile(lockFile, 'utf8')).replace(/\n  "prefix": "zoo",/, ''));
    expect((await readLock(dir))?.prefix).toBeUndefined();
    const second = await generate(dir, v1, { prefix: 'zoo' });
    expect(second.plan!.tools.map((tool) => tool.name)).toEqual(first.plan!.tools.map((tool) => tool.name));
    expect((await readLock(dir))?.prefix).toBe('zoo');
  });

  it('writes surface changes to the changelog and names added and removed actions', async () => {
    const dir = await tempDir('regen-changelog');
    await generate(dir, v1);
    const changed = structuredClone(v1) as Record<string, Record<string, unknown>>;
    delete changed['/customers'];
    changed['/orders/{id}']!['delete'] = { operationId: 'cancelOrder', tags: ['orders'], parameters: idParam, responses: ok };
    const result = await generate(dir, changed);
    const kinds = result.diff!.changes.map((change) => `${change.kind}${change.breaking ? '!' : ''}`);
    expect(kinds).toEqual(expect.arrayContaining(['tool-removed!', 'tool-added']));
    const changelog = await readFile(path.join(dir, 'CHANGELOG.md'), 'utf8');
    expect(changelog).toMatch(/BREAKING tool customers_read removed/);
    expect(changelog).toMatch(/First generation/);
  });

  it('regenerates a project whose lock file has the version 1 format: the same names, a true changelog, a version 2 lock', async () => {
    const dir = await tempDir('regen-lock-v1');
    const first = await generate(dir, v1);
    const old = first.plan!.tools.find((tool) => tool.actions.length > 1)!.name;
    // A name only the lock file knows: a fresh plan would not choose it.
    await generate(dir, v1, { renameTools: { [old]: 'shop_orders_read' } });
    const pinned = (await readLock(dir))!;
    await downgradeLock(dir);
    expect(JSON.parse(await readFile(path.join(dir, LOCK_FILE), 'utf8'))).toMatchObject({ lockVersion: 1 });
    expect(await readLock(dir)).toEqual(pinned);

    const changed = structuredClone(v1) as Record<string, Record<string, unknown>>;
    delete changed['/customers'];
    changed['/orders']!['get'] = {
      operationId: 'listOrders',
      tags: ['orders'],
      parameters: [{ in: 'query', name: 'status', schema: { type: 'string' } }],
      responses: ok,
    };
    const result = await generate(dir, changed);
    expect(result.ok).toBe(true);
    expect(result.plan!.tools.map((tool) => tool.name)).toContain('shop_orders_read');
    const kinds = result.diff!.changes.map((change) => `${change.kind}${change.breaking ? '!' : ''} ${change.tool}`);
    expect(kinds.sort()).toEqual(['argument-added shop_orders_read', 'tool-removed! customers_read']);
    const [listing] = Object.entries(pinned.surface.tools['shop_orders_read']!.actions).find(
      ([, action]) => action.operation === 'GET /orders',
    )!;
    const changelog = await readFile(path.join(dir, 'CHANGELOG.md'), 'utf8');
    expect(changelog).toContain(
      `2 changes, 1 breaking:\n\n- BREAKING tool customers_read removed\n- argument status added to shop_orders_read.${listing}\n`,
    );
    // The project now carries a version 2 lock with the same pins.
    const rewritten = JSON.parse(await readFile(path.join(dir, LOCK_FILE), 'utf8')) as {
      lockVersion: number;
      tools: Record<string, unknown>;
    };
    expect(rewritten.lockVersion).toBe(LOCK_VERSION);
    expect(Object.keys(rewritten.tools)).toContain('shop_orders_read');
    expect((await generate(dir, changed, { check: true })).stale).toEqual([]);
  });

  it('removes the deployment files when they are turned off, and keeps and names one edited by hand', async () => {
    const dir = await tempDir('regen-deploy-off');
    const deployment = ['.dockerignore', '.mcpbignore', 'Dockerfile', 'deploy/kubernetes.yaml', 'manifest.json'];
    await generate(dir, v1, { deploy: true });
    for (const file of deployment) await expect(readFile(path.join(dir, file), 'utf8'), file).resolves.toBeTruthy();
    await writeFile(path.join(dir, 'Dockerfile'), `${await readFile(path.join(dir, 'Dockerfile'), 'utf8')}# ours\n`);
    const off = await generate(dir, v1);
    expect(off.ok).toBe(true);
    const removed = off.write!.changes.filter((change) => change.kind === 'remove').map((change) => change.path);
    expect(removed.sort()).toEqual(deployment.filter((file) => file !== 'Dockerfile'));
    for (const file of removed) await expect(readFile(path.join(dir, file), 'utf8'), file).rejects.toThrow();
    // The folder the removed Kubernetes file leaves empty goes too.
    await expect(readdir(path.join(dir, 'deploy'))).rejects.toThrow();
    expect(await readFile(path.join(dir, 'Dockerfile'), 'utf8')).toContain('# ours');
    expect(off.diagnostics).toContainEqual(
      expect.objectContaining({ severity: 'warning', code: 'OTM_OUTPUT_EDITED', message: expect.stringContaining('Dockerfile') }),
    );
    // Nothing stale is left behind: the lock file no longer claims the removed files, and a check finds nothing to do.
    expect(Object.keys((await readLock(dir))!.files).filter((file) => deployment.includes(file))).toEqual([]);
    expect((await generate(dir, v1, { check: true })).stale).toEqual([]);
  });

  it('diff compares two descriptions as a regeneration would', async () => {
    const dir = await tempDir('regen-diff');
    const oldFile = `${dir}-old.json`;
    const newFile = `${dir}-new.json`;
    await writeFile(oldFile, spec(v1));
    const changed = structuredClone(v1) as Record<string, Record<string, { parameters?: unknown[] }>>;
    changed['/customers']!['get']!.parameters = [{ in: 'query', name: 'country', required: true, schema: { type: 'string' } }];
    await writeFile(newFile, spec(changed));
    const result = await runDiff({ old: oldFile, new: newFile });
    expect(result.diff?.changes).toEqual([expect.objectContaining({ kind: 'argument-added', argument: 'country', breaking: true })]);
  });

  it('rolls back an interrupted swap: the previous project is left exactly as it was', async () => {
    const dir = await tempDir('regen-interrupted');
    await generate(dir, v1);
    const before = await readFile(path.join(dir, 'src/api.ts'), 'utf8');
    // Simulate a crash in the middle of a swap: a journal, a backup of api.ts, a half-placed new file.
    const { mkdir, rename } = await import('node:fs/promises');
    await mkdir(path.join(dir, '.openapi-to-mcp-backup/src'), { recursive: true });
    await rename(path.join(dir, 'src/api.ts'), path.join(dir, '.openapi-to-mcp-backup/src/api.ts'));
    await writeFile(path.join(dir, 'src/api.ts'), '// half-written\n');
    await writeFile(path.join(dir, 'src/new-file.ts'), '// new\n');
    await writeFile(
      path.join(dir, '.openapi-to-mcp-journal.json'),
      JSON.stringify({
        entries: [
          { path: 'src/api.ts', existed: true },
          { path: 'src/new-file.ts', existed: false },
        ],
      }),
    );
    expect(await recoverInterrupted(dir)).toBe(true);
    expect(await readFile(path.join(dir, 'src/api.ts'), 'utf8')).toBe(before);
    await expect(readFile(path.join(dir, 'src/new-file.ts'), 'utf8')).rejects.toThrow();
    const check = await generate(dir, v1, { check: true });
    expect(check.stale).toEqual([]);
  });
});
