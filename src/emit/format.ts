import { PRETTIER_OPTIONS } from './print/prettier-parts.js';

/**
 * A scaffold file rendered from a template, as it is written: JSON formatted by prettier with the pinned inline
 * options (the user's .prettierrc never applies), other text with one final newline. Prettier is loaded on the
 * first JSON file; generated TypeScript modules and data files are printed in prettier's layout by `print/`.
 */
export async function finishFile(path: string, content: string): Promise<string> {
  if (!path.endsWith('.json')) return `${content.replace(/\s+$/, '')}\n`;
  const { format } = await import('prettier');
  return format(content, { ...PRETTIER_OPTIONS, parser: 'json' });
}
