import * as standalone from 'prettier/standalone';

/**
 * The pieces of prettier the printers reuse so that their output is prettier's to the byte: the doc builders and
 * printer, string width (East Asian wide characters and emoji count double) and quote choice. They come from
 * `prettier/standalone` (85 kB, no language plugins): loading prettier's TypeScript parser and printer costs more
 * than all of the emitting, and formatting the generated files with it was most of a generation's time.
 */
type Prettier = typeof import('prettier');

const api = standalone as unknown as Pick<Prettier, 'doc' | 'util'>;

export const doc = api.doc;
export const util = api.util;

/** The pinned options every generated file is printed with (the user's .prettierrc never applies). */
export const PRINT_WIDTH = 120;
export const TAB_WIDTH = 2;
export const PRETTIER_OPTIONS = {
  singleQuote: true,
  printWidth: PRINT_WIDTH,
  trailingComma: 'all',
  semi: true,
  endOfLine: 'lf',
  tabWidth: TAB_WIDTH,
} as const;

/** Width of text as prettier measures it (plain ASCII is measured by its length). */
export const textWidth: (text: string) => number = util.getStringWidth;
