import { isDeepStrictEqual } from 'node:util';
import { Diagnostics } from '../../src/diagnostics/diagnostic.js';
import type { JsonObject } from '../../src/kernel/json.js';
import { parseTextAs } from '../../src/load/parse-text.js';
import { DocumentReparse } from '../../src/load/reparse-document.js';
import { Random } from '../fuzz/random.js';

/** Line edits a hand makes inside an item: some keep it valid, some break it, some change its shape. */
const LINE_EDITS: Array<[string, (line: string) => string]> = [
  ['a word appended', (line) => `${line} more`],
  ['the line removed', () => ''],
  ['the line written twice', (line) => `${line}\n${line}`],
  ['indented two more', (line) => `  ${line}`],
  ['indented two less', (line) => line.replace(/^ {2}/, '')],
  ['a comment at column 0 after it', (line) => `${line}\n# note`],
  ['a new key at its indentation', (line) => `${line}\n${/^ */.exec(line)?.[0] ?? ''}x-edited: true`],
];

export type YamlEditReport = { edits: number; reparsed: number; mismatches: string[] };

/**
 * Makes `count` random line edits inside path items of a YAML description (one at a time, each from the description
 * as written) and checks each against a whole parse: where the reparse answers, the whole parse must succeed and
 * give the same document. Answers how many it answered, and every disagreement.
 */
export function checkYamlEdits(text: string, count: number, seed = 1): YamlEditReport {
  const parsed = parseTextAs(text, 'x.yaml', new Diagnostics(), { yamlSpans: true });
  const report: YamlEditReport = { edits: 0, reparsed: 0, mismatches: [] };
  const spans = parsed.spans;
  if (!spans || spans.length === 0) return report;
  const random = new Random(seed);
  for (let edit = 0; edit < count; edit++) {
    const span = spans[random.int(spans.length)]!;
    const lines = text.slice(span.start, span.end).split('\n');
    // The key's line stays: edits to it are the indentation check's, tested on their own.
    const at = 1 + random.int(Math.max(1, lines.length - 2));
    if (at >= lines.length) continue;
    const [name, change] = LINE_EDITS[random.int(LINE_EDITS.length)]!;
    lines[at] = change(lines[at]!);
    const edited = `${text.slice(0, span.start)}${lines.join('\n')}${text.slice(span.end)}`;
    if (edited === text) continue;
    report.edits++;
    const reparse = new DocumentReparse();
    reparse.remember(text, parsed.value as JsonObject, 1000, { json: false, spans });
    const reparsed = reparse.parse(edited);
    if (!reparsed) continue;
    report.reparsed++;
    const diagnostics = new Diagnostics();
    const whole = parseTextAs(edited, 'x.yaml', diagnostics).value;
    if (diagnostics.hasErrors || !isDeepStrictEqual(whole, reparsed.root))
      report.mismatches.push(`${span.key}, line ${at + 1} of the item: ${name}`);
  }
  return report;
}
