#!/usr/bin/env node
// Prints the operations of an API's description with their path, query and body arguments — the reference to write
// ground truth from. Filter with a substring of the path or operationId.
//
//   node eval/list-operations.mjs <api> [filter] [--bodies]
import { apiIds, descriptionFile, parseArgs } from './lib/apis.mjs';
import { deref, listOperations, loadDescription } from './lib/description.mjs';

const { options, positional } = parseArgs(process.argv.slice(2), { bodies: 'flag' });
const [id, filter = ''] = positional;
if (!id) {
  console.error(`usage: node eval/list-operations.mjs <${apiIds().join('|')}> [filter] [--bodies]`);
  process.exit(2);
}
const doc = loadDescription(await descriptionFile(id));
for (const operation of listOperations(doc)) {
  if (filter && !`${operation.path} ${operation.operationId}`.toLowerCase().includes(filter.toLowerCase())) continue;
  const query = operation.parameters.filter((p) => p.in === 'query').map((p) => `${p.name}${p.required ? '*' : ''}${enumOf(p.schema)}`);
  console.log(`${operation.method} ${operation.path}  [${operation.operationId ?? ''}] ${operation.summary ?? ''}`);
  if (query.length) console.log(`    query: ${query.join(', ')}`);
  if (operation.body?.schema)
    console.log(`    body (${operation.body.mediaType}): ${fields(operation.body.schema, options.bodies ? 2 : 1)}`);
}

function enumOf(schema) {
  const resolved = deref(doc, schema);
  return Array.isArray(resolved?.enum) ? `(${resolved.enum.slice(0, 8).join('|')})` : '';
}

function fields(rawSchema, depth, seen = new Set()) {
  const schema = deref(doc, rawSchema);
  if (!schema || typeof schema !== 'object' || seen.has(schema)) return '';
  seen.add(schema);
  const parts = [];
  for (const part of [...(schema.allOf ?? []), ...(schema.oneOf ?? []), ...(schema.anyOf ?? [])]) {
    const text = fields(part, depth, seen);
    if (text) parts.push(text);
  }
  const required = new Set(schema.required ?? []);
  for (const [name, raw] of Object.entries(schema.properties ?? {})) {
    const property = deref(doc, raw) ?? {};
    const inner = depth > 1 && (property.properties || property.allOf) ? ` {${fields(property, depth - 1, seen)}}` : '';
    parts.push(`${name}${required.has(name) ? '*' : ''}${enumOf(property)}${inner}`);
  }
  if (schema.items) parts.push(`[${fields(schema.items, depth, seen)}]`);
  return parts.join(', ');
}
