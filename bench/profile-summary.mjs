#!/usr/bin/env node
// Summarises a V8 CPU profile (node --cpu-prof): time by function (self), by file (self) and by function
// (inclusive). `node bench/profile-summary.mjs CPU.….cpuprofile [rows]`. Used to write bench/PROFILE.md.
import { existsSync, readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { fileURLToPath } from 'node:url';

const [file, rowsArgument] = process.argv.slice(2);
if (!file) {
  console.error('usage: node bench/profile-summary.mjs <file.cpuprofile> [rows]');
  process.exit(2);
}
const rows = Number(rowsArgument ?? 30);
const profile = JSON.parse(readFileSync(file, 'utf8'));
const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
const parent = new Map();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
// Frames in the CLI bundle (dist/bundle/, scripts/bundle-cli.mjs) are mapped back to tsc's modules through its source
// maps, so that files and lines read as they do in dist/.
const maps = new Map();
function original(frame) {
  if (!/\/dist\/bundle\/[^/]+\.js$/.test(frame.url)) return frame;
  if (!maps.has(frame.url)) {
    const file = `${fileURLToPath(frame.url)}.map`;
    maps.set(frame.url, existsSync(file) ? new SourceMap(JSON.parse(readFileSync(file, 'utf8'))) : null);
  }
  const entry = maps.get(frame.url)?.findEntry(frame.lineNumber, frame.columnNumber);
  if (!entry?.originalSource) return frame;
  return { ...frame, url: new URL(entry.originalSource, frame.url).href, lineNumber: entry.originalLine };
}
const where = (node) =>
  original(node.callFrame)
    .url.replace(/^.*node_modules\//, 'nm/')
    .replace(/^file:\/\/.*?\/(dist|src|bench|test)\//, '$1/');
const label = (node) => `${node.callFrame.functionName || '(anonymous)'} ${where(node)}:${original(node.callFrame).lineNumber + 1}`;

const self = new Map();
const selfByFile = new Map();
const inclusive = new Map();
let total = 0;
profile.samples.forEach((id, index) => {
  const micros = profile.timeDeltas[index] ?? 0;
  total += micros;
  const node = nodes.get(id);
  self.set(label(node), (self.get(label(node)) ?? 0) + micros);
  const fileName = where(node) || node.callFrame.functionName;
  selfByFile.set(fileName, (selfByFile.get(fileName) ?? 0) + micros);
  const seen = new Set();
  for (let current = id; current !== undefined; current = parent.get(current)) {
    const key = label(nodes.get(current));
    if (seen.has(key)) continue;
    seen.add(key);
    inclusive.set(key, (inclusive.get(key) ?? 0) + micros);
  }
});
const top = (map) =>
  [...map]
    .sort((a, b) => b[1] - a[1])
    .slice(0, rows)
    .map(([key, micros]) => `${String(Math.round(micros / 1000)).padStart(7)} ms  ${key}`)
    .join('\n');
console.log(
  `sampled ${Math.round(total / 1000)} ms\n\n-- self time by function\n${top(self)}\n\n-- self time by file\n${top(selfByFile)}\n\n-- inclusive time by function\n${top(inclusive)}`,
);
