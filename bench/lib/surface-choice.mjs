// Microsoft Graph with `--surface auto`: the choice of surface (`plan`) and the whole generation it serves, beside the
// peer's generation of the same description; alternating runs, fresh output folders.
import { rmSync } from 'node:fs';
import path from 'node:path';
import { runOurs, runPeer, summarize } from './generation.mjs';
import { measure } from './processes.mjs';

/** `plan <spec> --surface auto --json`: the surface it chose and why, with the process's time and memory. */
async function planAuto(repo, spec) {
  const result = await measure(process.execPath, [path.join(repo, 'bin/openapi-to-mcp.js'), 'plan', spec, '--surface', 'auto', '--json']);
  let report = {};
  try {
    report = JSON.parse(result.stdout);
  } catch {
    // A crash prints no JSON; the exit code says it failed.
  }
  return { ...result, ok: result.code === 0, mode: report.surface?.mode, reason: report.surface?.reason, tools: report.totals?.tools };
}

export async function measureSurfaceChoice({ repo, peerBin, spec, work, runs, log }) {
  const plans = [];
  const ours = [];
  const peer = [];
  for (let run = 0; run < runs; run++) {
    const order = run % 2 === 0 ? ['plan', 'ours', 'peer'] : ['peer', 'ours', 'plan'];
    for (const who of order) {
      const out = path.join(work, 'surface-choice', who);
      rmSync(out, { recursive: true, force: true });
      if (who === 'plan') plans.push(await planAuto(repo, spec));
      else if (who === 'ours') ours.push(await runOurs(repo, spec, out, ['--surface', 'auto']));
      else peer.push(await runPeer(peerBin, spec, out));
    }
    log(
      `  Graph --surface auto run ${run + 1}/${runs}: plan ${Math.round(plans.at(-1).wallMs)} ms, ` +
        `generation ${Math.round(ours.at(-1).wallMs)} ms, peer ${Math.round(peer.at(-1).wallMs)} ms`,
    );
  }
  const chosen = plans.find((result) => result.ok) ?? {};
  return {
    name: path.basename(spec),
    plan: { ...summarize(plans, false), mode: chosen.mode, reason: chosen.reason },
    ours: summarize(ours, true),
    peer: summarize(peer, false),
  };
}
