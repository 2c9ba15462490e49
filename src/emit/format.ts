import { format } from 'prettier';

/** Pinned, inline options: the user's .prettierrc never changes generated output. */
const OPTIONS = { singleQuote: true, printWidth: 120, trailingComma: 'all', semi: true, endOfLine: 'lf', tabWidth: 2 } as const;

/** Formats TypeScript and JSON files; other files are written as rendered, with one final newline. */
export async function formatFile(path: string, content: string): Promise<string> {
  if (path.endsWith('.ts')) return format(content, { ...OPTIONS, parser: 'typescript' });
  if (path.endsWith('.json')) return format(content, { ...OPTIONS, parser: 'json' });
  return `${content.replace(/\s+$/, '')}\n`;
}
