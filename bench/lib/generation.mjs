// Generation, ours against the peer on the same description: alternating runs into fresh folders, medians.
import { rmSync } from 'node:fs';
import path from 'node:path';
import { measure } from './processes.mjs';
import { median } from './stats.mjs';

export const STAGES = ['load', 'model', 'plan', 'emit', 'write'];

/** One generation with our CLI; stage timings come from its `--json` report. */
export async function runOurs(repo, spec, out, extra = []) {
  const result = await measure(process.execPath, [path.join(repo, 'bin/openapi-to-mcp.js'), spec, '-o', out, '--json', ...extra]);
  let report = {};
  try {
    report = JSON.parse(result.stdout);
  } catch {
    // A crash prints no JSON; the exit code says it failed.
  }
  return { ...result, ok: result.code === 0, timings: report.timings ?? {}, tools: report.totals?.tools };
}

/** One generation with the peer's CLI, as its README shows it. */
export async function runPeer(peerBin, spec, out) {
  const result = await measure(process.execPath, [peerBin, '--input', spec, '--output', out, '--force']);
  return { ...result, ok: result.code === 0 };
}

/** Alternates ours and the peer `runs` times each (who goes first alternates too), fresh output folders each run. */
export async function compareGeneration({ repo, peerBin, spec, work, runs, log }) {
  const name = path.basename(spec).replace(/\.(json|ya?ml)$/, '');
  const ours = [];
  const peer = [];
  for (let run = 0; run < runs; run++) {
    const order = run % 2 === 0 ? ['ours', 'peer'] : ['peer', 'ours'];
    for (const who of order) {
      const out = path.join(work, 'generation', `${who}-${name}`);
      rmSync(out, { recursive: true, force: true });
      if (who === 'ours') ours.push(await runOurs(repo, spec, out));
      else peer.push(await runPeer(peerBin, spec, out));
    }
    log(`  ${name} run ${run + 1}/${runs}: ours ${Math.round(ours.at(-1).wallMs)} ms, peer ${Math.round(peer.at(-1).wallMs)} ms`);
  }
  return {
    name,
    spec,
    ours: summarize(ours, true),
    peer: summarize(peer, false),
  };
}

export function summarize(results, withStages) {
  const ok = results.filter((result) => result.ok);
  const summary = {
    ok: ok.length === results.length,
    failure: ok.length === results.length ? undefined : `exit ${results.find((result) => !result.ok)?.code}`,
    wallMs: median(ok.map((result) => result.wallMs)),
    peakRssKb: median(ok.map((result) => result.peakRssKb)),
    cpuMs: median(ok.map((result) => result.cpuMs)),
    runs: results.length,
  };
  if (withStages) {
    summary.stages = Object.fromEntries(STAGES.map((stage) => [stage, median(ok.map((result) => result.timings[stage]))]));
    summary.tools = ok[0]?.tools;
  }
  return summary;
}
