import { readFileSync } from 'node:fs';

const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { name: string; version: string };

/** This package's version, from its package.json. */
export const GENERATOR_VERSION: string = manifest.version;

/**
 * This package's npm name. The command it installs is `openapi-to-mcp`, but the npm name `openapi-to-mcp` belongs to
 * an unrelated package: instructions name this one (`npx -p <name> openapi-to-mcp`) so that they work from any folder.
 */
export const PACKAGE_NAME: string = manifest.name;

/** How to run the command from any folder, installed or not. */
export const RUN_COMMAND = `npx -p ${manifest.name} openapi-to-mcp`;
