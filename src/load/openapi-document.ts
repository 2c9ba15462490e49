/** The load stage's output: one parsed, bundled description with only internal `$ref`s left. */

import type { JsonObject } from '../kernel/json.js';

export type SpecVersion = '2.0' | '3.0' | '3.1';

export type SourceKind = 'file' | 'url' | 'stdin';

export type OpenApiDocument = {
  version: SpecVersion;
  /** The version string as written (`3.0.4`, `2.0`). */
  versionString: string;
  root: JsonObject;
  /** Where the description came from, for messages; never written into generated output. */
  source: { kind: SourceKind; location: string };
  /** Set when `$ref`s to other files or URLs were bundled in: the entry's text alone does not decide the document. */
  externalRefs?: true;
};
