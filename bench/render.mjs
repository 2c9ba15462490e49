#!/usr/bin/env node
// Writes bench/results.md again from the last run's measurements (bench/.work/results.json), without measuring:
// for a change to the report's layout or targets. `npm run bench` is what measures.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { report } from './lib/report.mjs';

const repo = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const results = JSON.parse(readFileSync(path.join(repo, 'bench/.work/results.json'), 'utf8'));
writeFileSync(path.join(repo, 'bench/results.md'), report(results));
