import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';

/**
 * How much of a file is read and decoded at a time: what Node's `readFile(…, 'utf8')` reads at a time. The text is
 * built from pieces of this size, so that the file's bytes are never held whole beside it (holding GitHub's 13 MB
 * of bytes through the parse raised a generation's peak by about 13 MB).
 */
const CHUNK_BYTES = 512 * 1024;

/**
 * A file's text, decoded as `readFile(…, 'utf8')` decodes it (the same pieces through the same decoder), and the
 * SHA-256 of its bytes, hashed as they are read. The digest is what the regeneration cache keys a run by: hashing
 * the text afterwards meant measuring and encoding it again (about 250 ms for GitHub's description; its bytes hash
 * in about 10 ms). The bytes decide the text, so two texts that differ have different digests.
 */
export async function readDigestedFile(file: string): Promise<{ text: string; digest: string }> {
  const hash = createHash('sha256').update(BYTES_TAG);
  const decoder = new StringDecoder('utf8');
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
    let text = '';
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, CHUNK_BYTES, null);
      if (bytesRead === 0) break;
      const piece = buffer.subarray(0, bytesRead);
      hash.update(piece);
      text += decoder.write(piece);
    }
    text += decoder.end();
    // Joined piece by piece, the text is a rope, which V8 copies into one string when it is first read by index: here,
    // where hashing the text used to do it, rather than inside JSON.parse. Reading, copying and parsing GitHub's
    // description took a median of 487 ms so against 526 ms with the copy left to the parser (14 alternating runs,
    // load 7; the spread of either is wider than the difference).
    text.charCodeAt(0);
    return { text, digest: hash.digest('hex') };
  } finally {
    await handle.close();
  }
}

/**
 * The digest of text that was handed over as a string (standard input through the command line's worker, a URL's
 * body): the SHA-256 of its UTF-16 code units, which every string has, well-formed or not. Tagged apart from a
 * file's bytes, so that no text handed over hashes like a file whose text differs from it.
 */
export function textDigest(text: string): string {
  return createHash('sha256').update(TEXT_TAG).update(text, 'utf16le').digest('hex');
}

const BYTES_TAG = 'bytes\n';
const TEXT_TAG = 'utf-16le\n';
