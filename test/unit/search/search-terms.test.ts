import { describe, expect, it } from 'vitest';
import { termData, termProcessor, tokenizer } from '../../../src/search/search-terms.js';
import * as runtime from '../../../templates/runtime/search/search-terms.js';

const data = termData();

/** What a text becomes: its terms, as MiniSearch receives them from the tokenizer and the term processor. */
function termsOf(side: { tokenizer: typeof tokenizer; termProcessor: typeof termProcessor }, text: string): string[] {
  const process = side.termProcessor(data);
  return side
    .tokenizer(data)(text)
    .flatMap((word) => process(word) ?? []);
}

describe('search terms', () => {
  it('the generated server processes queries exactly as the generator processed the index', () => {
    const samples = [
      ...Object.keys(data.phrases),
      ...Object.keys(data.expansions),
      ...data.stopWords,
      'listForRepo list_for_repo List-For-Repo HTTPServer getURLPath',
      'Kick  off the deploy workflow; who am I? pull   requests, get rid of it',
      'Crée une facture pour le client Müller — 請求書を作成 — ДОБАВИТЬ',
      '/repos/{owner}/{repo}/issues?state=open#frag',
      'a.b-c_d e1F2 3G 4h',
    ];
    for (const text of samples) expect(termsOf(runtime, text), text).toEqual(termsOf({ tokenizer, termProcessor }, text));
  });

  it('brings plurals, verb forms and synonyms together', () => {
    const stem = (word: string) => termsOf({ tokenizer, termProcessor }, word)[0];
    expect(stem('repositories')).toBe(stem('repository'));
    expect(stem('Members')).toBe(stem('member'));
    expect(stem('created')).toBe(stem('creates'));
    expect(termsOf({ tokenizer, termProcessor }, 'kick')).toEqual(expect.arrayContaining(['~remove', stem('member')]));
    expect(termsOf({ tokenizer, termProcessor }, 'delete')).toContain('~remove');
    expect(termsOf({ tokenizer, termProcessor }, 'post')).toContain('~create');
    expect(termsOf({ tokenizer, termProcessor }, 'send')).toContain('~create');
    expect(termsOf({ tokenizer, termProcessor }, 'repo')).toContain(stem('repository'));
  });

  it('replaces idioms before words are split, and drops stop words', () => {
    expect(tokenizer(data)('Kick off the build')).toEqual(['start', 'the', 'build']);
    expect(termsOf({ tokenizer, termProcessor }, 'the of and')).toEqual([]);
    expect(termsOf({ tokenizer, termProcessor }, 'show me the teams')).not.toContain('~self');
    expect(termsOf({ tokenizer, termProcessor }, 'my teams')).toContain('~self');
  });

  it('is data the index carries, in a stable order', () => {
    expect(termData()).toEqual(data);
    expect(JSON.stringify(termData())).toBe(JSON.stringify(data));
    expect(Object.keys(data.expansions)).toEqual([...Object.keys(data.expansions)].sort());
  });
});

describe('queries', () => {
  it('leave out values that name no action, and keep the kind of a URL or a file', () => {
    const text = runtime.queryText(
      'Post "Deploy done" to octo-org/widget-kit for ana@acme.io on 2026-12-15 at https://ci.example.com/hook, attach notes.md (id Q2HDKL4PXL1ZN9, s3 bucket)',
    );
    expect(text.split(/\s+/).filter(Boolean)).toEqual(['Post', 'to', 'for', 'on', 'at', 'url', 'attach', 'file', '(id', 's3', 'bucket)']);
    expect(text).not.toMatch(/Deploy|octo-org|acme|2026|Q2HDKL4PXL1ZN9/);
    expect(runtime.queryText('list s3 buckets with oauth2')).toBe('list s3 buckets with oauth2');
    // An API path names an action (an operation without a summary is found by its method and path).
    expect(runtime.queryText('GET /api/v1/stream/sensors/{namespace}/logs')).toBe('GET /api/v1/stream/sensors/{namespace}/logs');
  });

  it('take what to do from the first verb; a later verb stands only for its own word', () => {
    const termsOfQuery = (text: string) => {
      const process = runtime.queryTermProcessor(data);
      return runtime
        .tokenizer(data)(text)
        .flatMap((word) => process(word) ?? []);
    };
    // A plain synonym stands for its intent alone; a specific verb keeps its own stem as well.
    expect(termsOfQuery('erase the message')).toContain('~remove');
    expect(termsOfQuery('erase the message')).not.toContain('eras');
    expect(termsOfQuery('rename the channel')).toEqual(expect.arrayContaining(['renam', '~update']));
    // "posted" qualifies the messages: it does not turn a read into a create.
    const read = termsOfQuery('show the messages posted in general');
    expect(read).toContain('~read');
    expect(read).not.toContain('~create');
    // A term counts once however often it is repeated.
    expect(termsOfQuery('issue issues issue')).toHaveLength(new Set(termsOfQuery('issue issues issue')).size);
  });
});
