/** The emit stage's output: every file of the generated project, with who owns it. */

export type Ownership =
  /** Rewritten on every generation; a hand edit is detected and protected. */
  | 'generated'
  /** Created once for the user; never overwritten. */
  | 'user'
  /** Rewritten from its previous content (the changelog): never counted as a hand edit, never removed. */
  | 'journal';

export type EmittedFile = { path: string; content: string; ownership: Ownership };

export function compareFiles(a: EmittedFile, b: EmittedFile): number {
  return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}
