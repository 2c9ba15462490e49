import type { IconSet } from '../load/read-icons.js';
import type { PrintValue } from './print/print-value.js';
import { printConst } from './print/print-value.js';
import { moduleText, typeImport } from './source-files.js';

/**
 * `src/icons.ts`: the icons the server shows (serverInfo), every tool shows unless it has its own, and the tools'
 * own, as `data:` URIs embedded here so that no client fetches anything. Empty lists when none are configured.
 */
export function iconsSource(icons: IconSet | undefined): { path: string; content: string } {
  const list = (icon: IconSet['server']) => (icon ? [icon] : []) as unknown as PrintValue;
  const byTool = Object.fromEntries(
    Object.entries(icons?.byTool ?? {})
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([name, icon]) => [name, [icon]]),
  );
  const path = 'src/icons.ts';
  const sameForTools = icons?.tools !== undefined && icons.tools === icons.server;
  const content = moduleText(
    path,
    [],
    [typeImport('@modelcontextprotocol/server', 'Icon')],
    [
      printConst('serverIcons', 'Icon[]', list(icons?.server)),
      // The tools' default is the server's own icon unless the configuration gives another: written once.
      sameForTools ? 'export const toolIcons: Icon[] = serverIcons;' : printConst('toolIcons', 'Icon[]', list(icons?.tools)),
      printConst('iconsByTool', 'Record<string, Icon[]>', byTool as unknown as PrintValue),
    ],
  );
  return { path, content };
}
