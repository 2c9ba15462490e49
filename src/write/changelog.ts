import { formatChange, type SurfaceDiff } from '../surface/diff-surface.js';

export const CHANGELOG_FILE = 'CHANGELOG.md';
const TITLE = '# Changes to the tool surface\n\nWhat changed for a model at each regeneration, newest first. Written by openapi-to-mcp.\n';

/**
 * The project's changelog with the entry of this generation on top. No dates: the same inputs must give the same
 * bytes; the API and generator versions say which generation an entry belongs to.
 */
export function updateChangelog(
  existing: string | undefined,
  entry: { apiVersion: string; generator: string; diff?: SurfaceDiff; tools: number },
): string {
  const body = existing?.startsWith(TITLE) ? existing.slice(TITLE.length) : (existing ?? '');
  if (entry.diff && entry.diff.changes.length === 0) return existing ?? `${TITLE}`;
  const heading = `## API ${entry.apiVersion.replace(/[\r\n]+/g, ' ')} — ${entry.generator}`;
  const lines = entry.diff
    ? [
        `${entry.diff.changes.length} change${entry.diff.changes.length === 1 ? '' : 's'}, ${entry.diff.breaking} breaking:`,
        '',
        ...entry.diff.changes.map((change) => `- ${formatChange(change)}`),
      ]
    : [`First generation: ${entry.tools} tool${entry.tools === 1 ? '' : 's'}.`];
  return `${TITLE}\n${heading}\n\n${lines.join('\n')}\n${body.startsWith('\n') ? body : body ? `\n${body}` : ''}`;
}
