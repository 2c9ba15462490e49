import { format } from 'prettier';
import { PRETTIER_OPTIONS } from '../../src/emit/print/prettier-parts.js';

/**
 * What prettier (pinned version, the generator's options) makes of a generated file: the reference the emitter's
 * printers must match byte for byte. Files other than TypeScript and JSON are not prettier's business.
 */
export async function prettierFormat(path: string, content: string): Promise<string> {
  if (path.endsWith('.ts')) return format(content, { ...PRETTIER_OPTIONS, parser: 'typescript' });
  if (path.endsWith('.json')) return format(content, { ...PRETTIER_OPTIONS, parser: 'json' });
  return content;
}
