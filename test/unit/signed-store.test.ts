import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CACHE_DIR, readSigned, wholeBody, writeSigned, type Signer } from '../../src/cache/signed-store.js';
import { tempDir } from '../helpers/project.js';

const signer: Signer = { secret: Buffer.from('a key of this user'), fingerprint: 'generator-1' };
// Text outside ASCII, so that a signature checked over anything but the bytes as written would not verify.
const value = { tool: 'issues', description: 'Café – ☕ 数据', lines: ['a\nb', '\u2028'] };

async function stored(key?: string): Promise<{ dir: string; file: string }> {
  const dir = await tempDir('signed-store');
  await writeSigned(dir, 'entry.json', wholeBody(value), signer, key);
  return { dir, file: path.join(dir, CACHE_DIR, 'entry.json') };
}

describe('signed cache files', () => {
  it('reads back what was written, under the same key', async () => {
    const { dir } = await stored('key-1');
    expect(await readSigned(dir, 'entry.json', signer, 1024 * 1024, 'key-1')).toEqual(value);
    expect(await readSigned(dir, 'entry.json', signer, 1024 * 1024)).toEqual(value);
  });

  it('treats another key, another generator, another secret or an oversized file as a miss', async () => {
    const { dir } = await stored('key-1');
    expect(await readSigned(dir, 'entry.json', signer, 1024 * 1024, 'key-2')).toBeUndefined();
    expect(await readSigned(dir, 'entry.json', { ...signer, fingerprint: 'generator-2' }, 1024 * 1024)).toBeUndefined();
    expect(await readSigned(dir, 'entry.json', { ...signer, secret: Buffer.from('another key') }, 1024 * 1024)).toBeUndefined();
    expect(await readSigned(dir, 'entry.json', signer, 16)).toBeUndefined();
  });

  it('reads back a body written in many pieces, over several batches of writes', async () => {
    const dir = await tempDir('signed-store');
    const items = Array.from({ length: 3000 }, (_, index) => ({ index, text: `${'Café ☕ '.repeat(index % 200)}${index}` }));
    await writeSigned(
      dir,
      'entry.json',
      async (write) => {
        await write('[');
        for (const [index, item] of items.entries()) await write(`${index > 0 ? ',' : ''}${JSON.stringify(item)}`);
        await write(']');
      },
      signer,
    );
    expect((await readFile(path.join(dir, CACHE_DIR, 'entry.json'))).length).toBeGreaterThan(2 * 1024 * 1024);
    expect(await readSigned(dir, 'entry.json', signer, 16 * 1024 * 1024)).toEqual(items);
  });

  it('refuses a body or a signature changed by one byte, and a file cut short', async () => {
    const { dir, file } = await stored();
    const bytes = await readFile(file);
    const body = bytes.indexOf('Caf');
    const flipped = Buffer.from(bytes);
    flipped[body] = 'D'.charCodeAt(0);
    await writeFile(file, flipped);
    expect(await readSigned(dir, 'entry.json', signer, 1024 * 1024)).toBeUndefined();

    const resigned = Buffer.from(bytes);
    const last = resigned.length - 1;
    resigned[last] = resigned[last] === '0'.charCodeAt(0) ? '1'.charCodeAt(0) : '0'.charCodeAt(0);
    await writeFile(file, resigned);
    expect(await readSigned(dir, 'entry.json', signer, 1024 * 1024)).toBeUndefined();

    await writeFile(file, bytes.subarray(0, bytes.lastIndexOf('\n')));
    expect(await readSigned(dir, 'entry.json', signer, 1024 * 1024)).toBeUndefined();

    await writeFile(file, bytes);
    expect(await readSigned(dir, 'entry.json', signer, 1024 * 1024)).toEqual(value);
  });

  it('reads a body in ASCII and a body past ASCII alike', async () => {
    const dir = await tempDir('signed-store');
    const ascii = { tool: 'issues', escaped: 'ship \\ud83d\\udea2', control: 'tab\\t' };
    await writeSigned(dir, 'ascii.json', wholeBody(ascii), signer);
    expect((await readFile(path.join(dir, CACHE_DIR, 'ascii.json'))).every((byte) => byte < 0x80)).toBe(true);
    expect(await readSigned(dir, 'ascii.json', signer, 1024 * 1024)).toEqual(ascii);
    const { dir: other } = await stored();
    expect(await readSigned(other, 'entry.json', signer, 1024 * 1024)).toEqual(value);
  });
});
