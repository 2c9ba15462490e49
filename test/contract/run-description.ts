import path from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import type { ToolPlan } from '../../src/plan/tool-plan.js';
import type { CorpusEntry } from '../helpers/corpus.js';
import { buildProject, connectHttp, generateProject, linkDependencies, startHttpServer, tempDir, textOf } from '../helpers/project.js';
import { contractCalls, type ContractCall } from './contract-arguments.js';
import { startPrism } from './prism.js';
import { startProxy } from './proxy.js';
import { prismVerdict, recordedVerdict } from './verdict.js';

/** What happened to one contract call. */
export type CallOutcome = ContractCall & {
  /** Requests the call caused (0 when the server refused it before sending). */
  sent: number;
  verdict: 'accepted' | 'rejected' | 'not-sent';
  reason?: string;
  isError: boolean;
  protocolError?: string;
  /** The tool result's text, shortened: why a call was not sent or came back as an error. */
  text?: string;
  /** The result was a concise list view, or fell back to `{}` because the response broke the output schema. */
  concise: boolean;
  outputFallback: boolean;
  /** Milliseconds of the whole call, and of the mock's answer. */
  ms: number;
  mockMs: number;
};

export type DescriptionResult = {
  name: string;
  /** `prism`, or `recording` when Prism could not load the description (the reason says why). */
  mock: 'prism' | 'recording';
  mockNote?: string;
  tools: number;
  actions: number;
  outcomes: CallOutcome[];
  seconds: number;
};

/**
 * Generates and builds the server of one description, starts it over HTTP against Prism (through a recording
 * proxy) and calls every action of every tool, each call classified by the request it caused and Prism's verdict.
 */
export async function runDescription(entry: CorpusEntry): Promise<DescriptionResult> {
  const started = Date.now();
  const dir = await tempDir(`contract-${entry.name}`);
  const spec = entry.spec;
  // With loose output schemas: the client checks every structured result against them, so the run also shows
  // that results conform (or fall back to {}) on every mocked response.
  const generated = await generateProject({
    spec,
    out: dir,
    outputSchema: 'loose',
    ...(entry.refRoot ? { refRoot: entry.refRoot } : {}),
  });
  const plan = generated.plan as ToolPlan;
  const model = generated.model;
  if (!model) throw new Error('generation returned no model');
  await linkDependencies(dir);
  const [prism] = await Promise.all([startPrism(spec).catch((error: Error) => error), buildProject(dir)]);
  // Prism's own message for a description it cannot load; the line naming the missing file says the most.
  const lines = prism instanceof Error ? prism.message.split('\n').map((line) => line.trim()) : [];
  const mockNote = lines.find((line) => /ENOENT|no such file/.test(line)) ?? lines.find((line) => /Error/.test(line));
  const proxy = await startProxy(prism instanceof Error ? undefined : prism.url);
  const server = await startHttpServer(dir, serverEnv(plan, proxy.url));
  let client: Client | undefined;
  const outcomes: CallOutcome[] = [];
  try {
    client = await connectHttp(server.url);
    const routes = new Map(plan.tools.flatMap((tool) => tool.actions.map((action) => [`${tool.name}/${action.name}`, action] as const)));
    for (const call of contractCalls(model, plan)) {
      const before = proxy.exchanges.length;
      const started = performance.now();
      let isError = false;
      let protocolError: string | undefined;
      let text = '';
      try {
        const result = await client.callTool({ name: call.tool, arguments: call.arguments });
        isError = result.isError === true;
        text = textOf(result);
      } catch (error) {
        protocolError = error instanceof Error ? error.message : String(error);
      }
      const exchanges = proxy.exchanges.slice(before);
      const last = exchanges.at(-1);
      const action = routes.get(`${call.tool}/${call.action}`);
      const verdict = !last || !action ? undefined : prism instanceof Error ? recordedVerdict(action, last) : prismVerdict(last);
      outcomes.push({
        ...call,
        sent: exchanges.length,
        verdict: !verdict ? 'not-sent' : verdict.accepted ? 'accepted' : 'rejected',
        ...(verdict && !verdict.accepted ? { reason: verdict.reason } : {}),
        isError,
        ...(protocolError !== undefined ? { protocolError } : {}),
        ...(isError || !verdict || text.includes('does not have the shape') ? { text: text.slice(-600) } : {}),
        concise: text.includes('Concise view:'),
        outputFallback: text.includes('does not have the shape the API description gives'),
        ms: Math.round(performance.now() - started),
        mockMs: exchanges.reduce((sum, exchange) => sum + exchange.ms, 0),
      });
    }
  } finally {
    await client?.close().catch(() => undefined);
    await server.stop();
    await proxy.close();
    if (!(prism instanceof Error)) await prism.stop();
  }
  return {
    name: entry.name,
    mock: prism instanceof Error ? 'recording' : 'prism',
    ...(mockNote ? { mockNote } : {}),
    tools: plan.tools.length,
    actions: plan.totals.actions,
    outcomes,
    seconds: Math.round((Date.now() - started) / 1000),
  };
}

/**
 * The generated server's environment: the proxy as base URL, a dummy value for every credential (Prism checks that
 * credentials are present and well-formed), no retries (one call, one request) and no rate limit.
 */
function serverEnv(plan: ToolPlan, baseUrl: string): Record<string, string> {
  const prefix = plan.api.envPrefix;
  const env: Record<string, string> = {
    [`${prefix}_BASE_URL`]: baseUrl,
    [`${prefix}_RETRIES`]: '0',
    [`${prefix}_RATE_LIMIT`]: '0',
    [`${prefix}_LOG_LEVEL`]: 'error',
  };
  for (const credential of plan.api.credentials) {
    // Client credentials: only the preset token, so the server never asks a real token endpoint.
    const names = credential.kind === 'oauth2ClientCredentials' ? credential.env.slice(2) : credential.env;
    for (const name of names) env[name] = `contract-${name.toLowerCase()}`;
  }
  return env;
}
