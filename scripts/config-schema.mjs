#!/usr/bin/env node
// Writes openapi-to-mcp.config.schema.json (shipped in the package, for editors) from the schema in
// src/config/config-schema.ts, via dist/. A unit test fails when the file is stale.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CONFIG_SCHEMA } from '../dist/config/config-schema.js';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
writeFileSync(path.join(root, 'openapi-to-mcp.config.schema.json'), `${JSON.stringify(CONFIG_SCHEMA, null, 2)}\n`);
