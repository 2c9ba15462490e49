import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ranks from 'gpt-tokenizer/bpeRanks/o200k_base';
import { O200K_TOKEN_SPLIT_REGEX } from 'gpt-tokenizer/encodingParams/constants';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { beforeAll, describe, expect, it } from 'vitest';
import { runPlan } from '../../../src/pipeline.js';
import { O200K_PIECES, O200kCounter } from '../../../src/plan/budget/o200k-count.js';
import { decodeTable, EMPTY, lookupRank } from '../../../src/plan/budget/o200k-table.js';
import { FIXTURE_SPECS, REPO_ROOT } from '../../helpers/paths.js';
import { Random } from '../../fuzz/random.js';

/** The reference: gpt-tokenizer 4.0.0, special-token text counted as plain text. */
const reference = (text: string) => countTokens(text, { disallowedSpecial: new Set() });

let counter: O200kCounter;
beforeAll(() => {
  counter = O200kCounter.load();
});

/** Texts whose counts differ, with both counts (the first ten). */
function differences(texts: Iterable<string>): Array<{ text: string; ours: number; reference: number }> {
  const found = [];
  for (const text of texts) {
    const ours = counter.count(text);
    const expected = reference(text);
    if (ours !== expected) found.push({ text: JSON.stringify(text).slice(0, 300), ours, reference: expected });
    if (found.length === 10) break;
  }
  return found;
}

type Listed = { name: string; title: string; description: string; inputSchema: unknown; annotations: unknown };
const listedJson = (tool: Listed) =>
  JSON.stringify({
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: tool.inputSchema,
    annotations: tool.annotations,
  });

function filesUnder(folder: string): string[] {
  return readdirSync(folder).flatMap((entry) => {
    const full = path.join(folder, entry);
    return statSync(full).isDirectory() ? filesUnder(full) : [full];
  });
}

/** A file's text in slices of 1,000 characters, the most the planner counts whole when a text runs without spaces. */
function slicesOf(text: string): string[] {
  const slices = [];
  for (let start = 0; start < text.length; start += 1_000) slices.push(text.slice(start, start + 1_000));
  return slices;
}

/** What tokenizers get wrong: scripts, marks, emoji, surrogates alone, U+FEFF, white space, digits, special tokens. */
const EDGE_PARTS = [
  ...['a', 'Z', 'Ab', 'é', 'ß', 'İ', 'ﬁ', 'Ω', '中文', '한국어', 'العربية', 'हिन्दी', 'e\u0301', '\u0301', '𝔘𝔫'],
  ...['😀', '👍🏽', '👨‍👩‍👧', '🇩🇪', '\ud83d', '\ude00', '\udbff\udbff', '\ufffd', '\ufeff', '\ufeffusing', '\ufeff\n\n', '名', 'ង'],
  ...[' ', '   ', '\t', '\n', '\r\n', '\r', '\u00a0', '\u3000', '\u2028', '\u200b', '\u0085', '\u000b', '\u0000', '\u007f'],
  ...['0', '12', '3456', '١٢٣', '½', '.', ',', '"', '{', '}', '/', '\\', '://', '-', '_', "'s", "'LL", "'ve", '```'],
  ...['<|endoftext|>', '<|im_start|>', '<|im_end|>', '<|endofprompt|>', '<|fim_prefix|>', 'ÿ', '\u00ad'],
];

function edgeCases(count: number): string[] {
  const random = new Random(16);
  return Array.from({ length: count }, () => {
    let text = '';
    for (let parts = 1 + random.int(40); parts > 0; parts--) text += EDGE_PARTS[random.int(EDGE_PARTS.length)];
    return text;
  });
}

describe('o200k counts', () => {
  it('split text into pieces with the pattern gpt-tokenizer uses', () => {
    expect(O200K_PIECES.source).toBe(O200K_TOKEN_SPLIT_REGEX.source);
    expect(O200K_PIECES.flags).toBe(O200K_TOKEN_SPLIT_REGEX.flags);
  });

  it('find every token gpt-tokenizer can look up at its own rank', () => {
    const table = decodeTable(readFileSync(path.join(REPO_ROOT, 'dist/o200k_base.bin')));
    const encoder = new TextEncoder();
    const wrong: number[] = [];
    ranks.forEach((token, rank) => {
      // Tokens stored as bytes that are UTF-8 (they start with U+FEFF) are ones gpt-tokenizer never finds.
      const bytes = typeof token === 'string' ? encoder.encode(token) : Uint8Array.from(token);
      const unreachable = typeof token !== 'string' && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
      if (lookupRank(table, bytes, 0, bytes.length) !== (unreachable ? EMPTY : rank)) wrong.push(rank);
    });
    expect(wrong).toEqual([]);
    expect(table.offsets.length).toBe(ranks.length + 1);
  });

  it("are gpt-tokenizer's on the tools/list entries of the vendored descriptions and the samples", async () => {
    const tools: Listed[] = [];
    for (const spec of readdirSync(FIXTURE_SPECS).filter((entry) => /\.(ya?ml|json)$/.test(entry))) {
      const result = await runPlan({ spec: path.join(FIXTURE_SPECS, spec), validate: false });
      tools.push(...(result.plan?.tools ?? []));
    }
    for (const sample of readdirSync(path.join(REPO_ROOT, 'samples'))) {
      const planFile = path.join(REPO_ROOT, 'samples', sample, 'plan.json');
      if (statSync(path.join(REPO_ROOT, 'samples', sample)).isDirectory())
        tools.push(...((JSON.parse(readFileSync(planFile, 'utf8')) as { tools?: Listed[] }).tools ?? []));
    }
    expect(tools.length).toBeGreaterThan(100);
    expect(differences(tools.map(listedJson))).toEqual([]);
  });

  it("are gpt-tokenizer's on the text of every test fixture and of the samples' descriptions and plans", () => {
    const samples = readdirSync(path.join(REPO_ROOT, 'samples')).flatMap((sample) =>
      ['openapi.yaml', 'swagger.json', 'plan.json'].map((file) => path.join(REPO_ROOT, 'samples', sample, file)),
    );
    const files = [...filesUnder(path.join(REPO_ROOT, 'test/fixtures')), ...samples.filter((file) => existsSync(file))];
    const texts = files.flatMap((file) => slicesOf(readFileSync(file, 'utf8')));
    expect(texts.length).toBeGreaterThan(2_000);
    expect(differences(texts)).toEqual([]);
  });

  it("are gpt-tokenizer's on generated edge cases", () => {
    expect(differences(edgeCases(5_000))).toEqual([]);
  });

  it("are gpt-tokenizer's on long pieces, runs and the tokens gpt-tokenizer stores as bytes", () => {
    const byteTokens = ranks.filter((token): token is number[] => typeof token !== 'string');
    const texts = [
      'x'.repeat(999),
      `${'ab'.repeat(300)}😀${'é'.repeat(300)}`,
      '😀'.repeat(400),
      `${'😀'.repeat(499)}\ud83d`,
      '中'.repeat(999),
      ' '.repeat(3_000),
      `a${'\n'.repeat(500)}b${'\t \r\n'.repeat(200)}`,
      '1234567890'.repeat(90),
      `${'\ufeff'.repeat(20)}using namespace`,
      // gpt-tokenizer finds "\ufeff名" as "名": one token.
      ...['\ufeff名', '\ufeff\u1784', 'x\ufeff名字', ' \ufeff名', '\ufeff\ufeff名'],
      ...byteTokens.map((token) => Buffer.from(token).toString('utf8')),
      ...byteTokens.map((token) => ` ${Buffer.from(token).toString('latin1')}x`),
    ];
    expect(differences(texts)).toEqual([]);
  });

  it("are gpt-tokenizer's where a lone surrogate stands for U+FFFD in a piece that is one token", () => {
    const withReplacement = ranks.filter((token): token is string => typeof token === 'string' && token.includes('\ufffd'));
    expect(withReplacement.length).toBeGreaterThan(10);
    const texts = withReplacement.flatMap((token) => [token.replaceAll('\ufffd', '\ud800'), token.replaceAll('\ufffd', '\udfff')]);
    expect(differences(texts)).toEqual([]);
  });
});
