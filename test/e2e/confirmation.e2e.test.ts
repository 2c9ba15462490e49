import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBin } from '../helpers/cli.js';
import { REPO_ROOT } from '../helpers/paths.js';
import { buildProject, linkDependencies, startHttpServer, tempDir, textOf, type HttpServer } from '../helpers/project.js';
import { startRoundRobin, type RoundRobin } from '../helpers/round-robin.js';
import { startUpstream, type Upstream } from '../helpers/upstream.js';

/**
 * GitHub's description, generated and built as a user does, deleting a repository (`repos_delete`, action `delete`:
 * DELETE /repos/{owner}/{repo}) through the official client over stdio and over HTTP through two replicas behind a
 * round-robin balancer, against a recording upstream: a client with an elicitation handler is asked first and only
 * an accepted question sends the DELETE, once; a declined or cancelled one sends nothing; a client without
 * elicitation gets the deployment's policy.
 */
const DELETE_ARGUMENTS = { action: 'delete', owner: 'octo-org', repo: 'hello-world' };
const TARGET = 'DELETE /repos/octo-org/hello-world';

type Answer = { action: 'accept'; content: { confirm: boolean } } | { action: 'decline' } | { action: 'cancel' };
type Asked = { message: string; requestedSchema: { properties: Record<string, { type: string }> } };

let dir: string;
let upstream: Upstream;

beforeAll(async () => {
  dir = await tempDir('confirmation-github');
  const spec = path.join(REPO_ROOT, 'node_modules/@octokit/openapi/generated/api.github.com.json');
  const generated = await runBin([spec, '-o', dir, '--quiet'], { cwd: REPO_ROOT });
  expect(generated.code, generated.stderr).toBe(0);
  await linkDependencies(dir);
  await buildProject(dir);
  upstream = await startUpstream();
  upstream.reply = () => ({ status: 204 });
}, 600_000);

afterAll(async () => {
  await upstream?.close();
});

/**
 * A client that declares form elicitation and gives `answer` to every question (recorded in `asked`), or declares
 * none; `manual`: declares it but leaves each `input_required` result to the test.
 */
function makeClient(mode: 'auto' | 'legacy', answer?: Answer, manual = false): { client: Client; asked: Asked[] } {
  const asked: Asked[] = [];
  const client = new Client(
    { name: 'confirmation-tests', version: '1.0.0' },
    {
      versionNegotiation: { mode },
      ...(answer || manual ? { capabilities: { elicitation: { form: {} } } } : {}),
      ...(manual ? { inputRequired: { autoFulfill: false } } : {}),
    },
  );
  if (answer)
    client.setRequestHandler('elicitation/create', (request) => {
      asked.push(request.params as unknown as Asked);
      return answer;
    });
  return { client, asked };
}

const deletes = () => upstream.requests.filter((request) => request.method === 'DELETE');

/** Calls repos_delete once; how many DELETEs reached the API during the call, and the result. */
async function deleteRepository(client: Client) {
  const before = deletes().length;
  const result = await client.callTool({ name: 'repos_delete', arguments: DELETE_ARGUMENTS });
  return { result, sent: deletes().slice(before) };
}

describe('over stdio', () => {
  async function stdio(mode: 'auto' | 'legacy', answer: Answer | undefined, env: Record<string, string> = {}) {
    const made = makeClient(mode, answer);
    await made.client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [path.join(dir, 'dist/main.js')],
        env: { PATH: process.env['PATH'] ?? '', GITHUB_BASE_URL: upstream.url, GITHUB_RATE_LIMIT: '0', ...env },
        stderr: 'pipe',
      }),
    );
    return made;
  }

  it('asks first, in plain words, and an accepted question sends the DELETE once', async () => {
    const { client, asked } = await stdio('auto', { action: 'accept', content: { confirm: true } });
    const { result, sent } = await deleteRepository(client);
    await client.close();
    expect(result.isError ?? false, textOf(result)).toBe(false);
    expect(sent.map((request) => request.path)).toEqual(['/repos/octo-org/hello-world']);
    expect(asked).toHaveLength(1);
    expect(asked[0]?.message).toContain(`Request: ${TARGET}`);
    expect(asked[0]?.message).toContain('Tool: repos_delete, action delete (operation repos/delete)');
    expect(asked[0]?.message).toContain('Nothing is sent to the API unless you confirm.');
    expect(asked[0]?.requestedSchema.properties['confirm']?.type).toBe('boolean');
  });

  it('sends nothing when the user declines or cancels, and says so', async () => {
    for (const [answer, said] of [
      [{ action: 'decline' }, `the user declined ${TARGET}`],
      [{ action: 'cancel' }, 'closed the confirmation'],
      // Accepting the form without ticking the box is no confirmation.
      [{ action: 'accept', content: { confirm: false } }, `the user declined ${TARGET}`],
    ] as const) {
      const { client, asked } = await stdio('auto', answer);
      const { result, sent } = await deleteRepository(client);
      await client.close();
      expect(asked).toHaveLength(1);
      expect(sent).toEqual([]);
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain(said);
      expect(textOf(result)).toContain('Nothing was sent to the API.');
    }
  });

  it('asks a client of the older protocol by elicitation/create', async () => {
    const accepting = await stdio('legacy', { action: 'accept', content: { confirm: true } });
    const accepted = await deleteRepository(accepting.client);
    await accepting.client.close();
    expect(accepting.asked.map((question) => question.message.includes(TARGET))).toEqual([true]);
    expect(accepted.sent).toHaveLength(1);
    const declining = await stdio('legacy', { action: 'decline' });
    const declined = await deleteRepository(declining.client);
    await declining.client.close();
    expect(declining.asked).toHaveLength(1);
    expect(declined.sent).toEqual([]);
    expect(declined.result.isError).toBe(true);
  });

  it('sends without asking a client without elicitation under the default policy, and refuses it under require', async () => {
    const asking = await stdio('auto', undefined);
    const proceeded = await deleteRepository(asking.client);
    await asking.client.close();
    expect(proceeded.result.isError ?? false, textOf(proceeded.result)).toBe(false);
    expect(proceeded.sent).toHaveLength(1);
    const requirements: Array<Record<string, string>> = [{ GITHUB_CONFIRM: 'require' }, { GITHUB_CONFIRM_TOOLS: 'repos_delete=require' }];
    for (const env of requirements) {
      const requiring = await stdio('auto', undefined, env);
      const refused = await deleteRepository(requiring.client);
      await requiring.client.close();
      expect(refused.sent).toEqual([]);
      expect(refused.result.isError).toBe(true);
      expect(textOf(refused.result)).toContain('this client cannot ask for it (it does not declare form elicitation)');
      expect(textOf(refused.result)).toContain('set GITHUB_CONFIRM_TOOLS=repos_delete=ask');
    }
  });

  it('asks nothing for a tool whose policy is off, nor for tools that delete nothing', async () => {
    const { client, asked } = await stdio('auto', { action: 'decline' }, { GITHUB_CONFIRM_TOOLS: 'repos_delete=off' });
    const { sent } = await deleteRepository(client);
    const before = upstream.requests.length;
    const read = await client.callTool({ name: 'repos_read', arguments: { action: 'get', owner: 'octo-org', repo: 'hello-world' } });
    await client.close();
    expect(sent).toHaveLength(1);
    expect(read.isError ?? false, textOf(read)).toBe(false);
    expect(upstream.requests.length).toBe(before + 1);
    expect(asked).toEqual([]);
  });

  it('refuses to start with a per-tool policy for a tool it does not serve', async () => {
    const { client } = makeClient('auto');
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [path.join(dir, 'dist/main.js')],
      env: { PATH: process.env['PATH'] ?? '', GITHUB_CONFIRM_TOOLS: 'repo_delete=off' },
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    await expect(client.connect(transport)).rejects.toThrow();
    expect(stderr).toContain('GITHUB_CONFIRM_TOOLS names "repo_delete", which this server does not serve.');
  });
});

describe('over HTTP through two replicas', () => {
  let balancer: RoundRobin;
  let replicas: HttpServer[] = [];

  async function serve(env: Record<string, string>): Promise<void> {
    await Promise.all(replicas.map((replica) => replica.stop()));
    replicas = await Promise.all([0, 1].map(() => startHttpServer(dir, { GITHUB_BASE_URL: upstream.url, GITHUB_RATE_LIMIT: '0', ...env })));
    balancer.targets = replicas.map((replica) => new URL(replica.url).origin);
    balancer.served = [];
  }

  async function http(answer: Answer | undefined, manual = false) {
    const made = makeClient('auto', answer, manual);
    await made.client.connect(new StreamableHTTPClientTransport(new URL('/mcp', balancer.url)));
    await made.client.listTools();
    return made;
  }

  beforeAll(async () => {
    balancer = await startRoundRobin();
    await serve({ GITHUB_STATE_KEYS: randomBytes(32).toString('base64') });
  }, 120_000);
  afterAll(async () => {
    await Promise.all(replicas.map((replica) => replica.stop()));
    await balancer?.close();
  });

  it('asks, and the retry that carries the answer is served by the other replica and sends the DELETE once', async () => {
    const { client, asked } = await http({ action: 'accept', content: { confirm: true } });
    const served = balancer.served.map((paths) => paths.length);
    const { result, sent } = await deleteRepository(client);
    await client.close();
    expect(result.isError ?? false, textOf(result)).toBe(false);
    expect(asked.map((question) => question.message.includes(TARGET))).toEqual([true]);
    expect(sent.map((request) => request.path)).toEqual(['/repos/octo-org/hello-world']);
    // The question and the retry: one request on each replica.
    expect(balancer.served.map((paths, index) => paths.length - (served[index] ?? 0))).toEqual([1, 1]);
    expect(balancer.failures).toEqual([]);
  });

  it('sends nothing when the user declines or cancels', async () => {
    for (const answer of [{ action: 'decline' }, { action: 'cancel' }] as const) {
      const { client, asked } = await http(answer);
      const { result, sent } = await deleteRepository(client);
      await client.close();
      expect(asked).toHaveLength(1);
      expect(sent).toEqual([]);
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain('Nothing was sent to the API.');
    }
  });

  it('does not take an answer for other arguments, nor a state it did not sign', async () => {
    const { client } = await http(undefined, true);
    /** One round by hand: the answer and state a retry carries (CallToolRequest's type leaves them out). */
    const call = async (args: Record<string, unknown>, retry: { inputResponses?: unknown; requestState?: string } = {}) =>
      (await client.callTool({ name: 'repos_delete', arguments: args, ...retry } as Parameters<Client['callTool']>[0], {
        allowInputRequired: true,
      })) as unknown as { resultType?: string; requestState?: string; isError?: boolean; content?: unknown };
    const first = await call(DELETE_ARGUMENTS);
    expect(first.resultType).toBe('input_required');
    const state = first.requestState ?? '';
    const inputResponses = { confirm: { action: 'accept', content: { confirm: true } } };
    const before = deletes().length;
    // The state of the question about hello-world, with an accepting answer, for another repository.
    expect((await call({ ...DELETE_ARGUMENTS, repo: 'production' }, { inputResponses, requestState: state })).resultType).toBe(
      'input_required',
    );
    // An accepting answer without any state, then with a state whose signed part is changed by one character.
    const forged = `${state.slice(0, 5)}${state[5] === 'A' ? 'B' : 'A'}${state.slice(6)}`;
    expect((await call(DELETE_ARGUMENTS, { inputResponses })).resultType).toBe('input_required');
    expect((await call(DELETE_ARGUMENTS, { inputResponses, requestState: forged })).resultType).toBe('input_required');
    expect(deletes().length).toBe(before);
    // The genuine state with the accepting answer, for the arguments it was made for.
    const confirmed = await call(DELETE_ARGUMENTS, { inputResponses, requestState: state });
    await client.close();
    expect(confirmed.isError ?? false, textOf(confirmed)).toBe(false);
    expect(
      deletes()
        .slice(before)
        .map((request) => request.path),
    ).toEqual(['/repos/octo-org/hello-world']);
  });

  it('refuses a client without elicitation under require, with what to do', async () => {
    await serve({ GITHUB_CONFIRM_KEYS: randomBytes(32).toString('base64'), GITHUB_CONFIRM: 'require' });
    const { client } = await http(undefined);
    const { result, sent } = await deleteRepository(client);
    await client.close();
    expect(sent).toEqual([]);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain(`requires the user's confirmation of ${TARGET}`);
    expect(textOf(result)).toContain('set GITHUB_CONFIRM_TOOLS=repos_delete=ask');
  });

  it('treats a client of the older protocol as one without elicitation: stateless HTTP cannot ask it', async () => {
    const { client, asked } = makeClient('legacy', { action: 'accept', content: { confirm: true } });
    await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', balancer.url)));
    const { result, sent } = await deleteRepository(client);
    await client.close();
    expect(asked).toEqual([]);
    expect(sent).toEqual([]);
    expect(textOf(result)).toContain('this client cannot ask for it');
  });

  it('without shared keys, a replica does not take the other one’s question: nothing is sent, and it says why', async () => {
    await serve({});
    const { client, asked } = await http({ action: 'accept', content: { confirm: true } });
    const before = deletes().length;
    await expect(client.callTool({ name: 'repos_delete', arguments: DELETE_ARGUMENTS })).rejects.toThrow();
    await client.close();
    expect(asked.length).toBeGreaterThan(1);
    expect(deletes().length).toBe(before);
    expect(replicas.map((replica) => replica.stderr()).join('\n')).toContain('set the same GITHUB_STATE_KEYS on each');
  });
});

it('the generated README says what each client does', async () => {
  const readme = await readFile(path.join(dir, 'README.md'), 'utf8');
  expect(readme).toContain('GITHUB_CONFIRM');
  expect(readme).toContain('repos_delete');
});

describe('the search surface', () => {
  let searchDir: string;

  beforeAll(async () => {
    searchDir = await tempDir('confirmation-github-search');
    const spec = path.join(REPO_ROOT, 'node_modules/@octokit/openapi/generated/api.github.com.json');
    const generated = await runBin([spec, '-o', searchDir, '--surface', 'search', '--quiet'], { cwd: REPO_ROOT });
    expect(generated.code, generated.stderr).toBe(0);
    await linkDependencies(searchDir);
    await buildProject(searchDir);
  }, 600_000);

  it('confirms a deletion found by search as the static surface does, under the routed tool’s name', async () => {
    const outcomes: Array<{ sent: number; isError: boolean; asked: number }> = [];
    for (const [answer, env] of [
      [{ action: 'accept', content: { confirm: true } }, {}],
      [{ action: 'decline' }, {}],
      [undefined, { GITHUB_CONFIRM_TOOLS: 'repos_delete=require' }],
    ] as const) {
      const { client, asked } = makeClient('auto', answer);
      await client.connect(
        new StdioClientTransport({
          command: process.execPath,
          args: [path.join(searchDir, 'dist/main.js')],
          env: { PATH: process.env['PATH'] ?? '', GITHUB_BASE_URL: upstream.url, GITHUB_RATE_LIMIT: '0', ...env },
          stderr: 'pipe',
        }),
      );
      const found = await client.callTool({ name: 'search_actions', arguments: { query: 'delete a repository', limit: 10 } });
      const matches = (found.structuredContent as { results?: Array<{ action: string; method: string; path: string; call: string }> })
        ?.results;
      const match = matches?.find((result) => result.method === 'DELETE' && result.path === '/repos/{owner}/{repo}');
      expect(match, textOf(found)).toBeDefined();
      const before = deletes().length;
      const result = await client.callTool({
        name: match?.call ?? '',
        arguments: { action: match?.action, arguments: { owner: 'octo-org', repo: 'hello-world' } },
      });
      await client.close();
      outcomes.push({ sent: deletes().length - before, isError: result.isError ?? false, asked: asked.length });
    }
    expect(outcomes).toEqual([
      { sent: 1, isError: false, asked: 1 },
      { sent: 0, isError: true, asked: 1 },
      { sent: 0, isError: true, asked: 0 },
    ]);
  }, 120_000);
});
