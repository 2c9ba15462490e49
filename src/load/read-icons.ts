import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Diagnostics } from '../diagnostics/diagnostic.js';
import { closestName } from '../diagnostics/did-you-mean.js';
import { decodeDataUri, embeddedIcon, iconProblem, type EmbeddedIcon } from './icon-image.js';

/**
 * Icons the configuration gives, each a file path or a `data:` URI: the server's (`server`), every tool's (`tools`,
 * default: the server's) and single tools' (`byTool`, by tool name).
 */
export type IconSources = { server?: string; tools?: string; byTool?: Record<string, string> };

/** The icons a generated server shows: its own, every tool's, and the tools that have their own. */
export type IconSet = { server?: EmbeddedIcon; tools?: EmbeddedIcon; byTool: Record<string, EmbeddedIcon> };

type Where = { pointer: string; file?: string };

/**
 * Reads the configured icon files into `data:` URIs, checked (icon-image.ts), before anything else runs: the
 * regeneration cache then keys on the images themselves, not on their paths. A source that is not a usable icon is
 * reported and left out; generation goes on without it.
 */
export async function embedIconSources(sources: IconSources, diagnostics: Diagnostics, file?: string): Promise<IconSources> {
  const embed = async (source: string, pointer: string) => {
    const icon = await readIcon(source, diagnostics, { pointer, ...(file ? { file } : {}) });
    return icon?.src;
  };
  const server = sources.server !== undefined ? await embed(sources.server, '#/icons/server') : undefined;
  const tools = sources.tools !== undefined ? await embed(sources.tools, '#/icons/tools') : undefined;
  const byTool: Record<string, string> = {};
  for (const [name, source] of Object.entries(sources.byTool ?? {})) {
    const src = await embed(source, `#/icons/byTool/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`);
    if (src) byTool[name] = src;
  }
  return { ...(server ? { server } : {}), ...(tools ? { tools } : {}), ...(Object.keys(byTool).length > 0 ? { byTool } : {}) };
}

async function readIcon(source: string, diagnostics: Diagnostics, where: Where): Promise<EmbeddedIcon | undefined> {
  if (/^data:/i.test(source)) return dataIcon(source, diagnostics, where);
  if (/^https?:\/\//i.test(source)) {
    diagnostics.warn('OTM_ICON_REMOTE', `The icon ${source} is a URL; icons are not fetched: it was left out.`, {
      ...where,
      hint: 'Download the image and give its file path (or a data: URI) instead.',
    });
    return undefined;
  }
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await readFile(source));
  } catch (error) {
    diagnostics.warn(
      'OTM_ICON_INVALID',
      `The icon ${path.basename(source)} could not be read (${(error as NodeJS.ErrnoException).code ?? 'error'}); it was left out.`,
      {
        ...where,
        hint: 'Give the path of a PNG, JPEG, WebP or SVG file, relative to the configuration file.',
      },
    );
    return undefined;
  }
  return checkedIcon(bytes, undefined, `The icon ${path.basename(source)}`, diagnostics, where);
}

function dataIcon(uri: string, diagnostics: Diagnostics, where: Where): EmbeddedIcon | undefined {
  const decoded = decodeDataUri(uri);
  if ('problem' in decoded) {
    diagnostics.warn('OTM_ICON_INVALID', `The icon's data: URI cannot be used: ${decoded.problem}; it was left out.`, {
      ...where,
      hint: 'Write it as data:image/png;base64,… (PNG, JPEG, WebP or SVG).',
    });
    return undefined;
  }
  return checkedIcon(decoded.bytes, decoded.declared || undefined, "The icon's data: URI", diagnostics, where);
}

function checkedIcon(bytes: Uint8Array, declared: string | undefined, what: string, diagnostics: Diagnostics, where: Where) {
  const problem = iconProblem(bytes, declared);
  if (problem === undefined) return embeddedIcon(bytes);
  diagnostics.warn(
    problem.includes('bytes, more than') ? 'OTM_ICON_TOO_LARGE' : 'OTM_ICON_INVALID',
    `${what} cannot be used: ${problem}; it was left out.`,
    {
      ...where,
      hint: problem.includes('bytes, more than')
        ? 'Give a smaller image: 64×64 pixels or an SVG is plenty for an icon.'
        : 'Give a PNG, JPEG, WebP or script-free SVG image.',
    },
  );
  return undefined;
}

/**
 * The icons of the generated server: the configuration's (already embedded), else for the server the description's
 * `info.x-logo` when it is a `data:` URI. A remote logo is not fetched — generation stays offline and deterministic,
 * and the server never fetches at run time — which an informational diagnostic says. A `byTool` name that names no
 * tool is reported with the closest name.
 */
export function iconSet(
  sources: IconSources | undefined,
  logo: string | undefined,
  toolNames: readonly string[],
  diagnostics: Diagnostics,
  file?: string,
): IconSet | undefined {
  const parse = (uri: string | undefined) => {
    const decoded = uri === undefined ? undefined : decodeDataUri(uri);
    return decoded && !('problem' in decoded) ? embeddedIcon(decoded.bytes) : undefined;
  };
  const server = parse(sources?.server) ?? logoIcon(logo, diagnostics, sources?.server === undefined);
  const tools = parse(sources?.tools) ?? server;
  const byTool: Record<string, EmbeddedIcon> = {};
  for (const [name, uri] of Object.entries(sources?.byTool ?? {})) {
    const icon = parse(uri);
    if (!icon) continue;
    if (toolNames.includes(name)) byTool[name] = icon;
    else {
      const close = closestName(name, toolNames);
      diagnostics.warn('OTM_ICON_UNKNOWN_TOOL', `icons.byTool names no tool: ${JSON.stringify(name)}; its icon was left out.`, {
        pointer: `#/icons/byTool/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`,
        ...(file ? { file } : {}),
        hint: close ? `Did you mean ${close}?` : '`openapi-to-mcp plan` lists the tool names.',
      });
    }
  }
  warnListSize(tools, toolNames.length - Object.keys(byTool).length, diagnostics, file);
  if (!server && !tools && Object.keys(byTool).length === 0) return undefined;
  return { ...(server ? { server } : {}), ...(tools ? { tools } : {}), byTool };
}

/** `tools/list` repeats the tools' icon on each tool: past this many bytes of it in all, it is worth a warning. */
const MAX_LISTED_ICON_BYTES = 256 * 1024;

function warnListSize(icon: EmbeddedIcon | undefined, tools: number, diagnostics: Diagnostics, file?: string): void {
  const listed = icon ? icon.src.length * tools : 0;
  if (listed <= MAX_LISTED_ICON_BYTES) return;
  diagnostics.warn(
    'OTM_ICON_TOO_LARGE',
    `Every tools/list carries the tools' icon ${tools} times, ${Math.round(listed / 1024).toLocaleString('en-US')} KiB in all.`,
    {
      pointer: '#/icons/tools',
      ...(file ? { file } : {}),
      hint: 'Give a smaller image (an SVG or a 32×32 PNG), or icons only to a few tools with icons.byTool.',
    },
  );
}

function logoIcon(logo: string | undefined, diagnostics: Diagnostics, report: boolean): EmbeddedIcon | undefined {
  if (logo === undefined) return undefined;
  const where = { pointer: '#/info/x-logo/url' };
  if (/^data:/i.test(logo)) return dataIcon(logo, diagnostics, where);
  if (report)
    diagnostics.add({
      severity: 'info',
      code: 'OTM_ICON_REMOTE',
      message: `info.x-logo is at ${logo}; generation does not fetch it, so the server has no icon from it.`,
      ...where,
      hint: 'Download the logo and give it as icons.server in the configuration (a file path or a data: URI).',
    });
  return undefined;
}
