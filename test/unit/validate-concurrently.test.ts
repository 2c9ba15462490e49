import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Diagnostics } from '../../src/diagnostics/diagnostic.js';
import { validateDocument } from '../../src/load/validate-document.js';
import { REPO_ROOT } from '../helpers/paths.js';

const invalid = {
  openapi: '3.0.3',
  info: { title: 'T' },
  paths: { '/a': { get: { responses: { 200: {} }, extra: true } } },
  servers: 'not a list',
};

/** The modules as built: the worker runs from dist/ (built by npm run build), as it does for users. */
async function built() {
  const concurrently = (await import(
    pathToFileURL(path.join(REPO_ROOT, 'dist/load/validate-concurrently.js')).href
  )) as typeof import('../../src/load/validate-concurrently.js');
  const diagnostics = (await import(
    pathToFileURL(path.join(REPO_ROOT, 'dist/diagnostics/diagnostic.js')).href
  )) as typeof import('../../src/diagnostics/diagnostic.js');
  return { ...concurrently, BuiltDiagnostics: diagnostics.Diagnostics };
}

describe('validation in a worker thread', () => {
  it('pieces a JSON text beside its check when asked, as the regeneration cache keeps it', async () => {
    const { checkDescription } = await built();
    const { textPieces } = (await import(
      pathToFileURL(path.join(REPO_ROOT, 'dist/load/text-pieces.js')).href
    )) as typeof import('../../src/load/text-pieces.js');
    const { documentSpans } = await import('../../src/load/path-item-spans.js');
    const valid = { openapi: '3.0.3', info: { title: 'T', version: '1' }, paths: {} };
    const text = JSON.stringify(invalid, null, 2);
    const answer = await checkDescription(valid, { text, location: 'x.json' }, { threshold: 0, pieces: true });
    expect(answer.errors.length).toBeGreaterThan(1);
    expect('pieces' in answer && answer.pieces).toEqual(textPieces(text, documentSpans(text) ?? { items: [] }));
    // Not asked, or not a JSON text that starts with its root object: no pieces.
    const plain = await checkDescription(valid, { text, location: 'x.json' }, { threshold: 0 });
    expect('pieces' in plain).toBe(false);
    const spaced = await checkDescription(valid, { text: ` ${text}`, location: 'x.json' }, { threshold: 0, pieces: true });
    expect('pieces' in spaced).toBe(false);
  });

  it('reports what validating in place reports, at the place it would have been reported', async () => {
    const { validateDescription, BuiltDiagnostics } = await built();
    const inPlace = new Diagnostics();
    validateDocument(structuredClone(invalid), inPlace);
    expect(inPlace.items.length).toBeGreaterThan(1);

    const concurrent = new BuiltDiagnostics();
    concurrent.warn('OTM_VALIDATION', 'before');
    // The worker validates the text (parsed again there); the document passed in place is a valid one, so the
    // warnings can only have come from the worker, not from the in-place fallback.
    const valid = { openapi: '3.0.3', info: { title: 'T', version: '1' }, paths: {} };
    validateDescription(valid, { text: JSON.stringify(invalid), location: 'x.json' }, concurrent, { threshold: 0 });
    concurrent.warn('OTM_VALIDATION', 'after');
    expect(concurrent.items.map((item) => item.message)).toEqual(['before', 'after']);
    await concurrent.settle();
    expect(concurrent.items).toEqual([
      { severity: 'warning', code: 'OTM_VALIDATION', message: 'before' },
      ...inPlace.items,
      { severity: 'warning', code: 'OTM_VALIDATION', message: 'after' },
    ]);
  });

  it('answers save after save from one worker a watch keeps', async () => {
    const { validateDescription, ValidationThread, BuiltDiagnostics } = await built();
    const thread = new ValidationThread();
    const threadIds = new Set<number | undefined>();
    const valid = { openapi: '3.0.3', info: { title: 'T', version: '1' }, paths: {} };
    for (const document of [invalid, { ...invalid, servers: [] }, invalid]) {
      const inPlace = new Diagnostics();
      validateDocument(structuredClone(document), inPlace);
      const found = new BuiltDiagnostics();
      validateDescription(valid, { text: JSON.stringify(document), location: 'x.json' }, found, { threshold: 0, thread });
      await found.settle();
      expect(found.items).toEqual(inPlace.items);
      threadIds.add((thread as unknown as { worker?: { threadId: number } }).worker?.threadId);
    }
    expect(threadIds.size).toBe(1);
    expect([...threadIds][0]).toBeGreaterThan(0);
    await thread.close();
  });

  it.each([
    ['node --input-type=module -e', ['--input-type=module']],
    ['node --max-old-space-size=512 --input-type=module -e', ['--max-old-space-size=512', '--input-type=module']],
  ])('starts its worker from a process run with `%s`', (_command, flags) => {
    // Such a process would pass `--input-type` on to its workers, where it stops the worker's start, and a worker's
    // own flags may not hold V8's; the fallback would then validate the valid document in place and report nothing,
    // so warnings here prove the worker ran.
    const module = pathToFileURL(path.join(REPO_ROOT, 'dist/load/validate-concurrently.js')).href;
    const diagnostics = pathToFileURL(path.join(REPO_ROOT, 'dist/diagnostics/diagnostic.js')).href;
    const script = `
      const { validateDescription } = await import(${JSON.stringify(module)});
      const { Diagnostics } = await import(${JSON.stringify(diagnostics)});
      const found = new Diagnostics();
      const valid = { openapi: '3.0.3', info: { title: 'T', version: '1' }, paths: {} };
      validateDescription(valid, { text: ${JSON.stringify(JSON.stringify(invalid))}, location: 'x.json' }, found, { threshold: 0 });
      await found.settle();
      console.log(found.items.length);`;
    const output = execFileSync(process.execPath, [...flags, '-e', script], { encoding: 'utf8' });
    expect(Number(output.trim())).toBeGreaterThan(1);
  });
});
