import { spawn, type ChildProcess } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Random } from '../fuzz/random.js';
import { REPO_ROOT, TMP } from '../helpers/paths.js';
import { buildProject, connectHttp, generateProject, linkDependencies, tempDir } from '../helpers/project.js';
import { startRoundRobin, type RoundRobin } from '../helpers/round-robin.js';
import { startUpstream, type Reply, type Upstream } from '../helpers/upstream.js';

/**
 * Soak: replicas of the generated HTTP server behind a round-robin balancer take thousands of tool calls from many
 * concurrent clients against an upstream that fails in every way the attack tests exercise one at a time. Every call
 * must get a result (an answer or an actionable error, never a lost call), no write may reach the API twice (each
 * carries a name of its own), and each server's memory must stay flat: the heap after garbage collection is sampled
 * every second from inside each server process.
 *
 *   SOAK_CALLS=…     total tool calls (default 4000)
 *   SOAK_CLIENTS=…   concurrent MCP clients (default 32)
 *   SOAK_REPLICAS=…  server processes behind the balancer (default 2)
 *   SOAK_SEED=…      seed of the fault schedule
 */

const env = (name: string, fallback: number) => (process.env[name] ? Number(process.env[name]) : fallback);
const CALLS = env('SOAK_CALLS', 4000);
const CLIENTS = env('SOAK_CLIENTS', 32);
const SEED = env('SOAK_SEED', 7);
const REPLICAS = env('SOAK_REPLICAS', 2);

const SPEC = path.join(REPO_ROOT, 'test/fixtures/hostile/attack-target.yaml');

/** Loaded into the server with --import: garbage-collects and prints its memory every second (no `?`: it would start the URL's query). */
const PROBE = `data:text/javascript,setInterval(()=>{if(globalThis.gc)globalThis.gc();const m=process.memoryUsage();process.stderr.write('OTM_MEM '+m.rss+' '+m.heapUsed+'\\n')},1000).unref()`;

type Fault = 'ok' | 'error-500' | 'retry-503' | 'slow' | 'reset' | 'malformed' | 'huge' | 'hang' | 'rate-429';

const FAULTS: ReadonlyArray<readonly [number, Fault]> = [
  [66, 'ok'],
  [8, 'error-500'],
  [5, 'retry-503'],
  [6, 'slow'],
  [4, 'reset'],
  [4, 'malformed'],
  [3, 'huge'],
  [2, 'hang'],
  [2, 'rate-429'],
];

function replyFor(fault: Fault): Reply | Promise<Reply> {
  switch (fault) {
    case 'ok':
      return { body: JSON.stringify({ id: 1, name: 'thing', tags: ['a', 'b'] }) };
    case 'error-500':
      return { status: 500, body: JSON.stringify({ message: 'internal failure' }) };
    case 'retry-503':
      return { status: 503, headers: { 'retry-after': '0' }, body: 'busy' };
    case 'rate-429':
      return { status: 429, headers: { 'retry-after': '1' }, body: '{"message":"slow down"}' };
    case 'slow':
      return new Promise((resolve) => setTimeout(() => resolve({ body: '{"slow":true}' }), 400));
    case 'reset':
      return { raw: (response) => response.socket?.destroy() };
    case 'malformed':
      return { body: '{"truncated": [1, 2,' };
    case 'huge':
      return { body: `["${'x'.repeat(3 * 1024 * 1024)}"]` };
    case 'hang':
      return { raw: () => undefined };
  }
}

describe('soak: thousands of calls, many clients, injected faults', () => {
  let dir: string;
  let upstream: Upstream;
  let balancer: RoundRobin;
  const servers: ChildProcess[] = [];
  let url: string;
  /** Memory samples per replica. */
  const samples: Array<Array<{ at: number; rss: number; heap: number }>> = [];
  const faults = new Map<Fault, number>();
  /** How many times each write's own name reached the API. */
  const writes = new Map<string, number>();

  const startReplica = async (replica: number): Promise<string> => {
    const server = spawn(process.execPath, ['--expose-gc', '--import', PROBE, path.join(dir, 'dist/main.js'), '--http', '--port', '0'], {
      cwd: dir,
      env: {
        PATH: process.env['PATH'] ?? '',
        ATTACK_TARGET_BASE_URL: `${upstream.url}/api/v1`,
        ATTACK_TARGET_API_KEY: 'soak-key-0123456789',
        ATTACK_TARGET_TIMEOUT_MS: '2000',
        ATTACK_TARGET_RETRIES: '1',
        ATTACK_TARGET_MAX_RESPONSE_BYTES: String(1024 * 1024),
        ATTACK_TARGET_MAX_CONCURRENCY: '16',
        ATTACK_TARGET_RATE_LIMIT: '0',
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    servers.push(server);
    const own: Array<{ at: number; rss: number; heap: number }> = [];
    samples[replica] = own;
    const started = Date.now();
    return new Promise<string>((resolve, reject) => {
      let log = '';
      server.stderr?.on('data', (chunk: Buffer) => {
        log += chunk.toString();
        for (const match of chunk.toString().matchAll(/OTM_MEM (\d+) (\d+)/g))
          own.push({ at: Date.now() - started, rss: Number(match[1]) / 1048576, heap: Number(match[2]) / 1048576 });
        const listening = /listening on (http:\/\/\S+)/.exec(log);
        if (listening) resolve(new URL(listening[1] as string).origin);
      });
      server.once('exit', (code) => reject(new Error(`server exited with ${code}: ${log}`)));
    });
  };

  beforeAll(async () => {
    dir = await tempDir('soak');
    await generateProject({ spec: SPEC, out: dir });
    await linkDependencies(dir);
    await buildProject(dir);
    upstream = await startUpstream();
    const random = new Random(SEED);
    upstream.reply = (request) => {
      upstream.requests.length = 0;
      if (request.method === 'POST') {
        const name = String((JSON.parse(request.body.toString() || '{}') as { name?: unknown }).name);
        writes.set(name, (writes.get(name) ?? 0) + 1);
      }
      const fault = random.weighted(FAULTS);
      faults.set(fault, (faults.get(fault) ?? 0) + 1);
      return replyFor(fault);
    };
    balancer = await startRoundRobin();
    balancer.targets = await Promise.all(Array.from({ length: REPLICAS }, (_, replica) => startReplica(replica)));
    url = `${balancer.url}/mcp`;
  });

  afterAll(async () => {
    for (const server of servers) server.kill('SIGTERM');
    await balancer?.close();
    await upstream?.close();
  });

  it(`answers ${CALLS} calls from ${CLIENTS} clients, loses none, and keeps its memory flat`, { timeout: 900_000 }, async () => {
    const clients: Client[] = await Promise.all(Array.from({ length: CLIENTS }, () => connectHttp(url)));
    const tally = { answered: 0, errors: 0, lost: 0, lostMessages: new Set<string>() };
    let next = 0;
    let warmedUp: Array<{ rss: number; heap: number } | undefined> | undefined;
    const started = Date.now();
    const calls = (index: number) =>
      [
        { name: 'things_read', arguments: { id: '1' } },
        { name: 'search_read', arguments: { q: 'soak', 'X-Request-Id': 'r-1' } },
        { name: 'things_write', arguments: { action: 'create_thing', name: `soak-${index}`, meta: { toString: 'y' } } },
        { name: 'files_read', arguments: { path: '../etc/passwd' } },
      ][index % 4] as { name: string; arguments: Record<string, unknown> };
    await Promise.all(
      clients.map(async (client) => {
        for (let index = next++; index < CALLS; index = next++) {
          if (index === Math.floor(CALLS / 5)) warmedUp = samples.map((own) => own[own.length - 1]);
          try {
            const result = await client.callTool(calls(index));
            tally.answered++;
            if (result.isError) tally.errors++;
          } catch (error) {
            tally.lost++;
            tally.lostMessages.add((error as Error).message.slice(0, 200));
          }
        }
      }),
    );
    const seconds = (Date.now() - started) / 1000;
    await Promise.all(clients.map((client) => client.close()));
    await new Promise((resolve) => setTimeout(resolve, 2500));
    const ends = samples.map((own) => own[own.length - 1]);
    const duplicated = [...writes].filter(([, count]) => count > 1).map(([name]) => name);
    const figures = [
      `soak: ${CALLS} calls from ${CLIENTS} clients through ${REPLICAS} replicas in ${seconds.toFixed(1)} s (${(CALLS / seconds).toFixed(0)} calls/s)`,
      `  answered ${tally.answered} (${tally.errors} as actionable tool errors), lost ${tally.lost}${tally.lost ? `: ${[...tally.lostMessages].join(' | ')}` : ''}`,
      `  balancer: ${balancer.failures.length} requests not passed on${balancer.failures.length ? ` (${[...new Set(balancer.failures)].join(', ')})` : ''}`,
      `  writes that reached the API: ${[...writes.values()].reduce((sum, count) => sum + count, 0)} for ${writes.size} names, ${duplicated.length} twice or more`,
      `  upstream faults injected: ${[...faults].map(([fault, count]) => `${fault} ${count}`).join(', ')}`,
      ...samples.map((own, replica) => {
        const peak = own.reduce((most, sample) => Math.max(most, sample.rss), 0);
        return (
          `  replica ${replica + 1}: heap after garbage collection ${own[0]?.heap.toFixed(1)} MB at start, ${warmedUp?.[replica]?.heap.toFixed(1)} MB after warm-up (${Math.floor(CALLS / 5)} calls), ${ends[replica]?.heap.toFixed(1)} MB at the end; ` +
          `RSS ${own[0]?.rss.toFixed(0)} MB, ${warmedUp?.[replica]?.rss.toFixed(0)} MB, ${ends[replica]?.rss.toFixed(0)} MB, ${peak.toFixed(0)} MB at peak (${own.length} samples)`
        );
      }),
    ].join('\n');
    console.log(figures);
    await writeFile(path.join(TMP, 'soak-summary.txt'), `${figures}\n`);
    expect(tally.lost, figures).toBe(0);
    expect(tally.answered).toBe(CALLS);
    expect(duplicated, figures).toEqual([]);
    for (const server of servers) expect(server.exitCode).toBeNull();
    samples.forEach((own, replica) => {
      const [warm, end] = [warmedUp?.[replica], ends[replica]];
      expect(warm && end, `replica ${replica + 1}`).toBeTruthy();
      // Flat: the heap after garbage collection ends where it stood after warm-up, give or take a few MB of caches.
      expect((end?.heap ?? Infinity) - (warm?.heap ?? 0), figures).toBeLessThan(25);
      expect((end?.rss ?? Infinity) - (warm?.rss ?? 0), figures).toBeLessThan(150);
    });
    for (const target of balancer.targets) expect((await fetch(new URL('/healthz', target))).status).toBe(200);
  });
});
