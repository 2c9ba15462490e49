import { readFileSync } from 'node:fs';

const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  name: string;
  version: string;
  engines: { node: string };
};

/** This package's version, from its package.json. */
export const GENERATOR_VERSION: string = manifest.version;

/**
 * This package's npm name. The command it installs is `openapi-to-mcp`, but the npm name `openapi-to-mcp` belongs to
 * an unrelated package: once this one is published, `npx -p <name> openapi-to-mcp` runs it from any folder.
 */
export const PACKAGE_NAME: string = manifest.name;

/**
 * How to run the command where the package is installed (a project that installed its packed tarball) or in a clone.
 * The package is not on the npm registry yet, so no instruction may depend on it: `npx -p <name>` answers E404.
 */
export const RUN_COMMAND = 'npx openapi-to-mcp';

/** The tarball `npm pack` writes in a clone, which installs the command anywhere until the package is published. */
export const TARBALL = `${manifest.name}-${manifest.version}.tgz`;

/** The form that will run the command from any folder once the package is on the npm registry. */
export const REGISTRY_RUN_COMMAND = `npx -p ${manifest.name} openapi-to-mcp`;

/**
 * The Node.js versions this package and the projects it generates run on (`>=20.19`, from package.json's engines):
 * one constant, so that the README, the generated package.json and the bundle manifest cannot disagree. The generated
 * projects' test and build tools (Vite 8, vitest 4, rolldown) need 20.19 themselves.
 */
export const NODE_ENGINE: string = manifest.engines.node;
