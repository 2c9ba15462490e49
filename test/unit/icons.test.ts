import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Diagnostics } from '../../src/diagnostics/diagnostic.js';
import { MAX_ICON_BYTES, sniffIcon } from '../../src/load/icon-image.js';
import { embedIconSources, iconSet } from '../../src/load/read-icons.js';
import { tempDir } from '../helpers/project.js';

const PNG_HEAD = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
/** A PNG signature and an IHDR chunk of 32×16 pixels: enough for the checks, which read no pixels. */
const PNG = Buffer.from([...PNG_HEAD, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 32, 0, 0, 0, 16, 8, 2, 0, 0, 0]);
const dataUri = (type: string, bytes: Buffer) => `data:${type};base64,${bytes.toString('base64')}`;

describe('icons', () => {
  it('tells the four image types by their content, not their name', () => {
    expect(sniffIcon(PNG)).toBe('image/png');
    expect(sniffIcon(Buffer.from([0xff, 0xd8, 0xff, 0xe0]))).toBe('image/jpeg');
    expect(sniffIcon(Buffer.from('RIFF\0\0\0\0WEBPVP8 ', 'latin1'))).toBe('image/webp');
    expect(sniffIcon(Buffer.from('<?xml version="1.0"?>\n<!-- logo --><svg xmlns="http://www.w3.org/2000/svg"/>'))).toBe('image/svg+xml');
    expect(sniffIcon(Buffer.from('GIF89a'))).toBeUndefined();
    expect(sniffIcon(Buffer.from('<html><svg/></html>'))).toBeUndefined();
  });

  it('embeds files and data URIs as base64 data URIs, and reports each unusable one with code, pointer and hint', async () => {
    const dir = await tempDir('icons');
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, 'ok.png'), PNG);
    await writeFile(path.join(dir, 'named.png'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    await writeFile(path.join(dir, 'big.png'), Buffer.concat([PNG, Buffer.alloc(MAX_ICON_BYTES)]));
    await writeFile(path.join(dir, 'script.svg'), '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    const diagnostics = new Diagnostics();
    const embedded = await embedIconSources(
      {
        server: path.join(dir, 'ok.png'),
        tools: dataUri('image/jpeg', PNG),
        byTool: {
          a: path.join(dir, 'named.png'),
          b: path.join(dir, 'big.png'),
          c: path.join(dir, 'script.svg'),
          d: path.join(dir, 'missing.png'),
          e: 'https://example.com/logo.png',
          'f/g': `data:image/svg+xml,${encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg"/>')}`,
        },
      },
      diagnostics,
      'openapi-to-mcp.config.json',
    );
    expect(embedded.server).toBe(dataUri('image/png', PNG));
    // A file is what it holds: named .png, an SVG is embedded as the SVG it is.
    expect(embedded.byTool).toEqual({
      a: dataUri('image/svg+xml', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>')),
      'f/g': dataUri('image/svg+xml', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>')),
    });
    expect(embedded.tools).toBeUndefined();
    expect(diagnostics.items.map(({ code, pointer, file, hint }) => ({ code, pointer, file, hint: Boolean(hint) }))).toEqual([
      { code: 'OTM_ICON_INVALID', pointer: '#/icons/tools', file: 'openapi-to-mcp.config.json', hint: true },
      { code: 'OTM_ICON_TOO_LARGE', pointer: '#/icons/byTool/b', file: 'openapi-to-mcp.config.json', hint: true },
      { code: 'OTM_ICON_INVALID', pointer: '#/icons/byTool/c', file: 'openapi-to-mcp.config.json', hint: true },
      { code: 'OTM_ICON_INVALID', pointer: '#/icons/byTool/d', file: 'openapi-to-mcp.config.json', hint: true },
      { code: 'OTM_ICON_REMOTE', pointer: '#/icons/byTool/e', file: 'openapi-to-mcp.config.json', hint: true },
    ]);
    expect(diagnostics.items[0]?.message).toContain('it says image/jpeg but holds image/png');
    expect(diagnostics.items[2]?.message).toContain('the SVG carries script');
    expect(diagnostics.hasErrors).toBe(false);
  });

  it("gives the server the description's data: logo, every tool the server's icon, and names an unknown tool's closest", () => {
    const diagnostics = new Diagnostics();
    const set = iconSet(
      { byTool: { reports_reed: dataUri('image/png', PNG) } },
      dataUri('image/png', PNG),
      ['reports_read', 'reports_write'],
      diagnostics,
    );
    expect(set?.server).toEqual({ src: dataUri('image/png', PNG), mimeType: 'image/png', sizes: ['32x16'] });
    expect(set?.tools).toBe(set?.server);
    expect(set?.byTool).toEqual({});
    expect(diagnostics.items).toMatchObject([
      { code: 'OTM_ICON_UNKNOWN_TOOL', pointer: '#/icons/byTool/reports_reed', hint: 'Did you mean reports_read?' },
    ]);
  });

  it("warns when tools/list would repeat the tools' icon past 256 KiB in all", () => {
    const diagnostics = new Diagnostics();
    const large = dataUri('image/png', Buffer.concat([PNG, Buffer.alloc(20_000)]));
    const names = Array.from({ length: 20 }, (_, index) => `tool_${index}`);
    iconSet({ tools: large }, undefined, names, diagnostics);
    expect(diagnostics.items).toMatchObject([{ code: 'OTM_ICON_TOO_LARGE', pointer: '#/icons/tools', severity: 'warning' }]);
    expect(diagnostics.items[0]?.message).toContain('20 times');
    const few = new Diagnostics();
    iconSet({ tools: large }, undefined, names.slice(0, 5), few);
    expect(few.items).toEqual([]);
  });

  it('does not fetch a remote x-logo, and says so at the info level with a hint', () => {
    const diagnostics = new Diagnostics();
    expect(iconSet(undefined, 'https://cdn.example.com/logo.png', ['x'], diagnostics)).toBeUndefined();
    expect(diagnostics.items).toMatchObject([
      { severity: 'info', code: 'OTM_ICON_REMOTE', pointer: '#/info/x-logo/url', hint: expect.stringContaining('icons.server') },
    ]);
  });
});
