import { fileURLToPath } from 'node:url';
import path from 'node:path';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const TMP = path.join(REPO_ROOT, 'test/.tmp');
export const BIN = path.join(REPO_ROOT, 'bin/openapi-to-mcp.js');
/** The petstore sample's description, which the command-line tests generate from. */
export const PETSTORE_SAMPLE = path.join(REPO_ROOT, 'samples/petstore/openapi.yaml');

/** Small public descriptions vendored with their licences (test/fixtures/specs/README.md): all `npm test` reads. */
export const FIXTURE_SPECS = path.join(REPO_ROOT, 'test/fixtures/specs');

export function fixtureSpec(entry: string): string {
  return path.join(FIXTURE_SPECS, entry);
}

/** Description fragments that show one trap each (test/fixtures/fragments/README.md). */
export function fragment(entry: string): string {
  return path.join(REPO_ROOT, 'test/fixtures/fragments', entry);
}
