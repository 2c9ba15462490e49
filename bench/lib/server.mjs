// The generated server at run time: cold start, tools/list latency, per-call overhead over a direct fetch to the
// same local upstream, and memory at rest and after 10,000 calls.
import { statusKb } from './processes.mjs';
import { percentile, median } from './stats.mjs';
import { startServer } from './stdio-client.mjs';

/** Spawn → initialize → first `tools/list` answer. */
export async function coldStart(project) {
  const server = startServer(process.execPath, [project.entry], { cwd: project.dir, env: project.env('http://127.0.0.1:9') });
  try {
    await server.initialize();
    await server.request('tools/list');
    return performance.now() - server.spawnedAt;
  } finally {
    await server.close();
  }
}

/**
 * One server under steady use: `tools/list` latency, then `calls` tool calls to the upstream, each measured call
 * paired with a direct `fetch` of the same upstream URL from this process (interleaved, so both see the same
 * machine load).
 */
export async function steadyState(project, upstream, call, { calls = 10_000, measured = 2_000, warmup = 200 } = {}) {
  const server = startServer(process.execPath, [project.entry], { cwd: project.dir, env: project.env(upstream.url) });
  try {
    await server.initialize();
    await server.request('tools/list');
    const listTimes = [];
    for (let index = 0; index < 30; index++) {
      const started = performance.now();
      await server.request('tools/list');
      listTimes.push(performance.now() - started);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    const restKb = statusKb(server.pid, 'VmRSS');
    const before = upstream.requests();
    const first = await server.request('tools/call', call.params);
    if (first.isError) throw new Error(`${project.who}: the benchmark call fails: ${JSON.stringify(first).slice(0, 500)}`);
    const direct = `${upstream.url}${call.upstreamPath}`;
    const viaServer = [];
    const viaFetch = [];
    for (let index = 1; index < calls; index++) {
      if (index <= warmup || index > warmup + measured) {
        await server.request('tools/call', call.params);
        continue;
      }
      let started = performance.now();
      await (await fetch(direct)).text();
      viaFetch.push(performance.now() - started);
      started = performance.now();
      await server.request('tools/call', call.params);
      viaServer.push(performance.now() - started);
    }
    const reached = upstream.requests() - before - measured;
    if (reached < calls) throw new Error(`${project.who}: only ${reached} of ${calls} calls reached the upstream`);
    await new Promise((resolve) => setTimeout(resolve, 200));
    return {
      listMs: median(listTimes),
      restKb,
      afterKb: statusKb(server.pid, 'VmRSS'),
      call: { p50: percentile(viaServer, 50), p99: percentile(viaServer, 99) },
      fetch: { p50: percentile(viaFetch, 50), p99: percentile(viaFetch, 99) },
      overhead: {
        p50: percentile(viaServer, 50) - percentile(viaFetch, 50),
        p99: percentile(viaServer, 99) - percentile(viaFetch, 99),
      },
    };
  } finally {
    await server.close();
  }
}
