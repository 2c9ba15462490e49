#!/usr/bin/env node
// Part of `npm run build` (after tsc): writes dist/o200k_base.bin, the o200k table src/plan/budget/o200k-count.ts
// counts with, from the ranks gpt-tokenizer (a devDependency, the counts' reference) ships. Loading
// gpt-tokenizer's ranks at run time costs a few hundred milliseconds and some 45 MB that V8 keeps for compiling the
// 2.4 MB array literal; the table loads in a few milliseconds and 4 MB.
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { encodeTable } from '../dist/plan/budget/o200k-table.js';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const out = path.join(root, 'dist/o200k_base.bin');
const require = createRequire(import.meta.url);
/** Rank → the token as a string where its bytes are UTF-8 (as gpt-tokenizer decodes them), else as its bytes. */
const ranks = require('gpt-tokenizer/cjs/bpeRanks/o200k_base').default;

const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const isUtf8 = (bytes) => {
  try {
    strict.decode(bytes);
    return true;
  } catch {
    return false;
  }
};
const encoder = new TextEncoder();
const tokens = ranks.map((token) => (typeof token === 'string' ? encoder.encode(token) : Uint8Array.from(token)));

// gpt-tokenizer finds the bytes of a pair as a string (through its string map) when they are UTF-8 and by a binary
// search over its byte tokens otherwise. A byte token that is UTF-8 (those that start with U+FEFF: its TextDecoder
// drops that mark, so it stored them as bytes) is therefore never found: it stays out of the hash table, so that our
// counts are gpt-tokenizer's. The counter's own handling of U+FEFF relies on no other token starting with it.
const reachable = (rank) => typeof ranks[rank] === 'string' || !isUtf8(tokens[rank]);
const startsWithMark = (bytes) => bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
tokens.forEach((token, rank) => {
  const text = ranks[rank];
  if (token.length === 0 || (typeof text === 'string' && !text.isWellFormed()) || (reachable(rank) && startsWithMark(token)))
    throw new Error(`o200k token ${rank} breaks an assumption of src/plan/budget/o200k-count.ts: ${JSON.stringify(text)}`);
});

writeFileSync(out, encodeTable(tokens, reachable));
const left = tokens.filter((_, rank) => !reachable(rank)).length;
console.log(`o200k table: ${tokens.length} tokens (${left} never looked up) → ${path.relative(root, out)}`);
