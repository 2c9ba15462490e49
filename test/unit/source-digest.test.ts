import { createHash } from 'node:crypto';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readDigestedFile, textDigest } from '../../src/load/source-digest.js';

/** Bytes that cross the reader's 512 KiB pieces inside multi-byte characters, with invalid UTF-8 among them. */
function awkwardBytes(size: number): Buffer {
  const pieces = [Buffer.from('{"a": "é 日本 😀"}\n'), Buffer.from([0xe6, 0x97]), Buffer.from([0xff, 0xc3, 0x28, 0xf0, 0x9f])];
  const bytes = Buffer.alloc(size);
  for (let offset = 0, index = 0; offset < size; index++) {
    const piece = pieces[index % pieces.length] as Buffer;
    offset += piece.copy(bytes, offset);
  }
  return bytes;
}

describe('a description read with its digest', () => {
  it('has the text readFile decodes, and the SHA-256 of its bytes', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'otm-digest-'));
    for (const size of [0, 1, 1000, 512 * 1024 - 1, 512 * 1024, 512 * 1024 + 1, 3 * 512 * 1024 + 7]) {
      const file = path.join(dir, `d${size}.json`);
      const bytes = awkwardBytes(size);
      await writeFile(file, bytes);
      const read = await readDigestedFile(file);
      expect(read.text === (await readFile(file, 'utf8')), `text of ${size} bytes`).toBe(true);
      expect(read.digest).toBe(createHash('sha256').update('bytes\n').update(bytes).digest('hex'));
    }
  });

  it('tells texts apart that differ in one byte, and text handed over from a file that decodes to it', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'otm-digest-'));
    await writeFile(path.join(dir, 'a.json'), '{"a": 1}');
    await writeFile(path.join(dir, 'b.json'), '{"a": 2}');
    const [a, b] = await Promise.all([readDigestedFile(path.join(dir, 'a.json')), readDigestedFile(path.join(dir, 'b.json'))]);
    expect(a.digest).not.toBe(b.digest);
    expect(textDigest('{"a": 1}')).not.toBe(a.digest);
    expect(textDigest('{"a": 1}')).toBe(textDigest('{"a": 1}'));
    // Both are U+FFFD once encoded as UTF-8; their UTF-16 code units differ.
    expect(textDigest('\ud800')).not.toBe(textDigest('\ufffd'));
  });
});
