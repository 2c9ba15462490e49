// Asks the user before a destructive action goes to the API. A client that declares form elicitation gets the
// question as a multi-round-trip `input_required` result (protocol 2026-07-28; the SDK's shim turns it into an
// `elicitation/create` request for older revisions) and retries with the answer. Nothing of the round trip is kept
// here: the retry carries a `requestState` signed with the deployment's keys (the SDK's HMAC codec), bound to the
// caller and naming a digest of the tool, the action and its arguments, so the retry may reach any replica, and a
// client can neither forge "already asked" nor reuse one answer for other arguments. A client without elicitation
// meets the deployment's policy (confirmation-settings.ts).

import {
  CLIENT_CAPABILITIES_META_KEY,
  createRequestStateCodec,
  inputRequired,
  inputResponse,
  type CallToolResult,
  type ClientCapabilities,
  type InputRequiredResult,
  type RequestStateCodec,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { api } from '../../api.js';
import { routedTools } from '../../tools/routed.js';
import { checkConfirmationTools, type ConfirmationSettings } from '../config/confirmation-settings.js';
import type { Settings } from '../config/settings.js';
import { log } from '../core/log.js';
import type { ConfirmPolicy, ToolDefinition } from '../core/types.js';
import { errorText } from '../results/results.js';
import { checkCall } from './call-tool.js';
import { confirmField, questionOf, refusalText, type PendingAction } from './confirmation-text.js';

/** The key of the one input request, and the field of its form. */
const QUESTION = 'confirm';
/** How long an answer may take: a person reads the question. */
const STATE_LIFETIME_SECONDS = 15 * 60;

type State = { d: string };

/** What to do with a call: answer without sending, or send (`undefined`). */
export type Confirmation = CallToolResult | InputRequiredResult | undefined;

/** Refuses at start a per-tool policy for a tool this server does not have. */
export function checkConfirmationSettings(settings: Settings): void {
  checkConfirmationTools(
    settings.confirmation,
    routedTools.map((tool) => tool.name),
    routedTools.filter((tool) => tool.annotations.destructiveHint === true).map((tool) => tool.name),
    `${api.envPrefix}_CONFIRM_TOOLS`,
  );
}

/** The policy for a tool, or `off` when it is not destructive. */
export function policyFor(tool: ToolDefinition, settings: ConfirmationSettings): ConfirmPolicy {
  if (tool.annotations.destructiveHint !== true) return 'off';
  return settings.tools.get(tool.name) ?? settings.policy;
}

/**
 * Decides a call of a routed tool before anything is sent. `legacyCapabilities`: what the client declared when it
 * connected, for requests of the older protocol revisions (which carry none of their own).
 */
export async function confirmBeforeSending(
  tool: ToolDefinition,
  input: Record<string, unknown>,
  context: ServerContext,
  settings: Settings,
  legacyCapabilities: () => ClientCapabilities | undefined,
): Promise<Confirmation> {
  const policy = policyFor(tool, settings.confirmation);
  if (policy === 'off') return undefined;
  // Arguments that fail the checks are refused by callTool, which sends nothing either.
  const checked = await checkCall(tool, Object.assign(Object.create(null) as Record<string, unknown>, input));
  if (!checked.ok) return undefined;
  const pending: PendingAction = {
    apiTitle: api.title,
    toolName: tool.name,
    action: checked.multi ? checked.action : '',
    route: checked.route,
    args: checked.args,
  };
  // The SDK types the envelope as empty: its keys are read as what the protocol says they hold.
  const envelope = context.mcpReq.envelope as { [CLIENT_CAPABILITIES_META_KEY]?: ClientCapabilities } | undefined;
  const declared = envelope?.[CLIENT_CAPABILITIES_META_KEY] ?? legacyCapabilities();
  if (!asksForms(declared)) {
    if (policy === 'require') return errorText(refusalText(pending, 'unconfirmable', `${api.envPrefix}_CONFIRM_TOOLS`));
    log('info', `${tool.name}: sent without confirmation, the client cannot ask (${api.envPrefix}_CONFIRM=ask)`);
    return undefined;
  }
  const codecs = await codecsOf(settings.confirmation);
  const digest = await digestOf(pending);
  if (await askedFor(digest, context, codecs, settings.confirmation)) {
    const answer = inputResponse(context.mcpReq.inputResponses, QUESTION);
    if (answer.kind === 'elicit') {
      if (answer.action === 'accept' && answer.content?.[QUESTION] === true) return undefined;
      const why = answer.action === 'cancel' ? 'cancelled' : 'declined';
      log('info', `${tool.name}: not sent, the user ${why}`);
      return errorText(refusalText(pending, why, `${api.envPrefix}_CONFIRM_TOOLS`));
    }
  }
  const field = confirmField(pending);
  return inputRequired({
    inputRequests: {
      [QUESTION]: inputRequired.elicit({
        mode: 'form',
        message: questionOf(pending),
        requestedSchema: {
          type: 'object',
          properties: {
            [QUESTION]: { type: 'boolean', title: field.title, description: field.description, default: false },
          },
          required: [QUESTION],
        },
      }),
    },
    requestState: await (codecs[0] as RequestStateCodec<State>).mint({ d: digest }, context),
  });
}

/** Whether the declared capabilities include form elicitation (a bare `elicitation: {}` means form, as in 2025). */
function asksForms(declared: ClientCapabilities | undefined): boolean {
  const elicitation = declared?.elicitation;
  if (!elicitation || typeof elicitation !== 'object') return false;
  return 'form' in elicitation || !('url' in elicitation);
}

/**
 * Whether this call is the retry of the question asked for these very arguments: its state opens under one of the
 * keys, for this caller, unexpired, and names their digest. Anything else is asked again, which is never unsafe.
 */
async function askedFor(
  digest: string,
  context: ServerContext,
  codecs: RequestStateCodec<State>[],
  settings: ConfirmationSettings,
): Promise<boolean> {
  const state = context.mcpReq.requestState<unknown>();
  if (typeof state !== 'string') return false;
  let reason = 'malformed';
  for (const codec of codecs) {
    try {
      return (await codec.verify(state, context)).d === digest;
    } catch (error) {
      reason = error instanceof Error ? error.message : reason;
      if (reason !== 'mac') break;
    }
  }
  // A state signed under another key: another replica made it, and replicas that do not share keys ask forever.
  if (reason === 'mac' && settings.keys.source === 'process')
    log(
      'warn',
      `a confirmation came back signed by another server: when several replicas serve, set the same ${api.envPrefix}_STATE_KEYS on each`,
    );
  return false;
}

const codecCache = new WeakMap<ConfirmationSettings, Promise<RequestStateCodec<State>[]>>();

/** One codec per key, newest first, each under a key derived for this use alone (the keys may also seal tokens). */
function codecsOf(settings: ConfirmationSettings): Promise<RequestStateCodec<State>[]> {
  let codecs = codecCache.get(settings);
  if (!codecs) {
    codecs = Promise.all(
      settings.keys.keys.map(async (key) =>
        createRequestStateCodec<State>({
          key: await derivedKey(key),
          ttlSeconds: STATE_LIFETIME_SECONDS,
          bind: callerOf,
        }),
      ),
    );
    codecCache.set(settings, codecs);
  }
  return codecs;
}

async function derivedKey(secret: Uint8Array): Promise<Uint8Array> {
  const material = await crypto.subtle.importKey('raw', secret, 'HKDF', false, ['deriveBits']);
  const info = new TextEncoder().encode('openapi-to-mcp confirmation');
  return new Uint8Array(
    await crypto.subtle.deriveBits({ name: 'HKDF', hash: 'SHA-256', salt: new Uint8Array(0), info }, material, 256),
  );
}

/** Who is calling, as the HTTP endpoint's bearer tokens say (empty over stdio and on an open endpoint). */
function callerOf(context: ServerContext): string {
  const authInfo = context.http?.authInfo;
  if (!authInfo) return '';
  const subject = authInfo.extra?.['subject'];
  return typeof subject === 'string' && subject ? `subject:${subject}` : `client:${authInfo.clientId}`;
}

/** SHA-256 of the tool, the action and the arguments as sent, in a canonical JSON form (keys sorted). */
async function digestOf(pending: PendingAction): Promise<string> {
  const text = canonical({ tool: pending.toolName, action: pending.action, arguments: pending.args });
  const bytes = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  return Buffer.from(bytes).toString('base64url');
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}
