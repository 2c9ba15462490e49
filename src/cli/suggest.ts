import { closestName } from '../diagnostics/did-you-mean.js';

/** The commands besides the default one (generate), for "did you mean" on a mistyped command. */
export const COMMANDS = ['plan', 'diff', 'init'];

/**
 * Adds "did you mean" to yargs' "Unknown argument(s): a, b" using the options the current command knows. yargs
 * lists each unknown flag twice (kebab and camel case); only names that appear on the command line are kept.
 */
export function unknownArgumentHelp(message: string, known: string[], argv: string[]): string | undefined {
  const match = /^Unknown arguments?: (.+)$/.exec(message);
  if (!match) return undefined;
  const names = (match[1] as string).split(', ').map((name) => name.trim());
  const given = new Set(argv.filter((arg) => arg.startsWith('-')).map((arg) => arg.replace(/^-+(no-)?/, '').split('=')[0] as string));
  const flags = known.filter((name) => name.length > 1 && !/[A-Z]/.test(name) && name !== '$0' && name !== '_');
  const lines: string[] = [];
  for (const name of names) {
    if (given.has(name)) {
      const close = closestName(name, flags);
      lines.push(`Unknown option --${name}.${close ? ` Did you mean --${close}?` : ''}`);
      continue;
    }
    if (/[A-Z]/.test(name) && names.some((other) => other !== name && toCamel(other) === name)) continue;
    // A positional nobody expected: often a mistyped command (`openapi-to-mcp pln spec.yaml`).
    const command = argv[0] !== undefined ? closestName(argv[0], COMMANDS) : undefined;
    lines.push(
      command && argv[0] !== command
        ? `Unknown command ${argv[0]}. Did you mean ${command}?`
        : `Unexpected argument ${JSON.stringify(name)}.`,
    );
  }
  return lines.length > 0 ? [...new Set(lines)].join('\n') : undefined;
}

function toCamel(name: string): string {
  return name.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());
}
