/**
 * Icon images as the generated server embeds them (MCP `Icon`, 2026-07-28): PNG, JPEG, WebP or SVG bytes, told apart
 * by their content rather than their name, small enough to repeat in `tools/list`, written as base64 `data:` URIs
 * so that no client fetches anything and no SVG text is ever spliced into code or markup.
 */

export const ICON_MIME_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/svg+xml'] as const;
export type IconMimeType = (typeof ICON_MIME_TYPES)[number];

/** An icon is repeated on every tool that shows it in `tools/list`: 32 KiB each at most. */
export const MAX_ICON_BYTES = 32 * 1024;

/** An MCP icon: a `data:` URI, its media type and, where the image says, its size. */
export type EmbeddedIcon = { src: string; mimeType: IconMimeType; sizes?: string[] };

/** The media type the bytes are, by their signature; SVG by its root element. */
export function sniffIcon(bytes: Uint8Array): IconMimeType | undefined {
  const at = (offset: number, ...values: number[]) => values.every((value, index) => bytes[offset + index] === value);
  if (at(0, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (at(0, 0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (at(0, 0x52, 0x49, 0x46, 0x46) && at(8, 0x57, 0x45, 0x42, 0x50)) return 'image/webp';
  const head = new TextDecoder('utf-8', { fatal: false }).decode(bytes.subarray(0, 4096));
  // An XML declaration, comments and a doctype may come first.
  if (/^\uFEFF?\s*(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*|<!DOCTYPE[^>]*>\s*)*<svg[\s>]/i.test(head)) return 'image/svg+xml';
  return undefined;
}

/**
 * What keeps the bytes from being an icon, if anything: not one of the four types, another type than the one
 * declared, too large, or an SVG that carries script (clients that draw SVG inline would run it).
 */
export function iconProblem(bytes: Uint8Array, declared?: string): string | undefined {
  const type = sniffIcon(bytes);
  if (!type) return 'it is not a PNG, JPEG, WebP or SVG image';
  if (declared !== undefined && declared !== type) return `it says ${declared} but holds ${type}`;
  if (bytes.byteLength > MAX_ICON_BYTES)
    return `it is ${bytes.byteLength.toLocaleString('en-US')} bytes, more than the ${MAX_ICON_BYTES.toLocaleString('en-US')} an icon may take`;
  if (type === 'image/svg+xml') {
    const text = new TextDecoder().decode(bytes);
    if (/<script[\s>]|<foreignObject[\s>]|\son[a-z]+\s*=|javascript:/i.test(text))
      return 'the SVG carries script (a script element, an event handler or a javascript: link)';
  }
  return undefined;
}

/** The icon of valid bytes (see iconProblem): a base64 data URI, with the pixel size a PNG states. */
export function embeddedIcon(bytes: Uint8Array): EmbeddedIcon {
  const mimeType = sniffIcon(bytes) as IconMimeType;
  const sizes = mimeType === 'image/svg+xml' ? ['any'] : mimeType === 'image/png' ? pngSize(bytes) : undefined;
  return {
    src: `data:${mimeType};base64,${Buffer.from(bytes).toString('base64')}`,
    mimeType,
    ...(sizes ? { sizes } : {}),
  };
}

/** The width and height of a PNG's header chunk (IHDR), as `48x48`. */
function pngSize(bytes: Uint8Array): string[] | undefined {
  if (bytes.byteLength < 24) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const width = view.getUint32(16);
  const height = view.getUint32(20);
  return width > 0 && height > 0 ? [`${width}x${height}`] : undefined;
}

/** The bytes and declared type of a `data:` URI (base64 or percent-encoded), or why it is not one. */
export function decodeDataUri(uri: string): { bytes: Uint8Array; declared: string } | { problem: string } {
  const match = /^data:([^,;]*)((?:;[^,;]*)*),(.*)$/is.exec(uri.trim());
  if (!match) return { problem: 'it is not a data: URI' };
  const declared = (match[1] ?? '').trim().toLowerCase();
  const base64 = /;base64$/i.test(match[2] ?? '');
  const data = match[3] ?? '';
  try {
    const bytes = base64 ? Buffer.from(data, 'base64') : Buffer.from(decodeURIComponent(data), 'utf8');
    return { bytes: new Uint8Array(bytes), declared };
  } catch {
    return { problem: 'its data is not valid percent-encoding' };
  }
}
