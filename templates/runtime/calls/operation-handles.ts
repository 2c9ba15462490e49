// Status handles of long-running operations: the place an accepted call's answer points at (its `Location`), with
// an HMAC-SHA-256 tag (node:crypto) over the tool, the action and that place. The server only reads a status where
// one of its own answers pointed, never a path a caller made up: the handle is not a way to reach the API's other
// paths with the server's credentials. The keys are `<PREFIX>_STATE_KEYS` (config/state-keys.ts), newest first, the
// same on every replica; without them a key is drawn at start and handles open only on the process that made them.
// Each tag is made under a key derived for handles alone: the same keys also sign confirmations and may seal tokens.

import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import type { Settings } from '../config/settings.js';

/** 128 bits of the tag, in base64url: enough against forgery, short enough for a model to copy. */
const TAG_LENGTH = 22;
const SEPARATOR = '#';

const derived = new WeakMap<Uint8Array, Uint8Array>();

/** The handle keys, each derived for this use from the deployment's state keys (newest first). */
function keysOf(settings: Settings): Uint8Array[] {
  return settings.handleKeys.keys.map((secret) => {
    let key = derived.get(secret);
    if (!key) {
      key = new Uint8Array(hkdfSync('sha256', secret, new Uint8Array(0), 'openapi-to-mcp status handle', 32));
      derived.set(secret, key);
    }
    return key;
  });
}

function tag(key: Uint8Array, tool: string, action: string, place: string): string {
  return createHmac('sha256', key)
    .update(`openapi-to-mcp status handle\n${tool}\n${action}\n${place}`)
    .digest('base64url')
    .slice(0, TAG_LENGTH);
}

/** The handle of `place` (a path and query below the API's base URL) for one action of one tool. */
export function makeHandle(settings: Settings, tool: string, action: string, place: string): string {
  return `${place}${SEPARATOR}${tag(keysOf(settings)[0] as Uint8Array, tool, action, place)}`;
}

/** The place a handle names, when this deployment made it for this tool and action; undefined otherwise. */
export function openHandle(settings: Settings, tool: string, action: string, handle: string): string | undefined {
  const at = handle.lastIndexOf(SEPARATOR);
  if (at <= 0) return undefined;
  const place = handle.slice(0, at);
  const given = Buffer.from(handle.slice(at + 1));
  let valid = false;
  for (const key of keysOf(settings)) {
    const expected = Buffer.from(tag(key, tool, action, place));
    valid = (expected.length === given.length && timingSafeEqual(expected, given)) || valid;
  }
  return valid ? place : undefined;
}
