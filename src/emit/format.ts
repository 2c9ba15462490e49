import { PRETTIER_OPTIONS } from './print/prettier-parts.js';

/**
 * A scaffold file rendered from a template, as it is written: JSON formatted by prettier with the pinned inline
 * options (the user's .prettierrc never applies), other text with one final newline. Prettier is loaded on the
 * first JSON file; generated TypeScript modules and data files are printed in prettier's layout by `print/`.
 */
export async function finishFile(path: string, content: string): Promise<string> {
  if (!path.endsWith('.json')) return `${content.replace(/\s+$/, '')}\n`;
  const { format, plugins } = await jsonPrettier();
  return format(content, { ...PRETTIER_OPTIONS, parser: 'json', plugins });
}

/**
 * Prettier's standalone core with the two plugins JSON needs: the babel parsers (json among them) and the estree
 * printers. The same code formats JSON as `import('prettier')` does, without its Node entry (config resolution, file
 * handling, every other language), which cost about 5 MB of memory and 150 ms on every generation.
 */
async function jsonPrettier() {
  const [{ format }, babel, estree] = await Promise.all([
    import('prettier/standalone'),
    import('prettier/plugins/babel'),
    import('prettier/plugins/estree'),
  ]);
  return { format, plugins: [babel, estree] };
}
