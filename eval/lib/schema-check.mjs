// Does a ground-truth value fit what the description declares? Fields must exist; scalars must fit type, enum and
// pattern. Composition (allOf, oneOf, anyOf) is followed: a value fits when it fits one branch.
import { deref } from './description.mjs';
import { scalarText } from './compare.mjs';

/** The problems of `value` against `schema`, as text; an empty list when it fits. */
export function valueProblems(doc, rawSchema, value, where, seen = new Set()) {
  const schema = deref(doc, rawSchema);
  if (!schema || typeof schema !== 'object' || seen.has(schema)) return [];
  const branches = [...(schema.oneOf ?? []), ...(schema.anyOf ?? [])];
  if (branches.length > 0 && !schema.properties && !schema.type) {
    const results = branches.map((branch) => valueProblems(doc, branch, value, where, new Set(seen)));
    return results.some((problems) => problems.length === 0) ? [] : results.sort((a, b) => a.length - b.length)[0];
  }
  const merged = mergeAllOf(doc, schema);
  const next = new Set(seen).add(schema);
  const problems = [];
  const type = Array.isArray(merged.type) ? merged.type : merged.type ? [merged.type] : [];
  if (value === null) return merged.nullable || type.includes('null') ? [] : [`${where}: null is not allowed`];
  if (Array.isArray(merged.enum) && merged.enum.length > 0 && !merged.enum.map(scalarText).includes(scalarText(value))) {
    problems.push(`${where}: ${scalarText(value)} is not one of ${merged.enum.map(scalarText).join(', ')}`);
  }
  if (Array.isArray(value)) {
    if (type.length > 0 && !type.includes('array')) return [`${where}: a list where the description has ${type.join('|')}`];
    value.forEach((item, index) => problems.push(...valueProblems(doc, merged.items, item, `${where}[${index}]`, next)));
    return problems;
  }
  if (value && typeof value === 'object') {
    if (type.length > 0 && !type.includes('object')) {
      // A form field may carry JSON text; the description then says string.
      if (type.includes('string')) return problems;
      return [`${where}: an object where the description has ${type.join('|')}`];
    }
    const properties = collectProperties(doc, merged);
    const open = merged.additionalProperties !== undefined && merged.additionalProperties !== false;
    for (const [key, inner] of Object.entries(value)) {
      if (key in properties) problems.push(...valueProblems(doc, properties[key], inner, `${where}.${key}`, next));
      else if (!open && Object.keys(properties).length > 0) problems.push(`${where}.${key}: no such field`);
      else if (open && typeof merged.additionalProperties === 'object')
        problems.push(...valueProblems(doc, merged.additionalProperties, inner, `${where}.${key}`, next));
    }
    return problems;
  }
  if (type.length > 0 && !type.some((candidate) => scalarFits(candidate, value))) {
    problems.push(`${where}: ${scalarText(value)} is not ${type.join('|')}`);
  }
  if (typeof merged.pattern === 'string' && typeof value === 'string') {
    let pattern;
    try {
      pattern = new RegExp(merged.pattern, 'u');
    } catch {
      pattern = undefined;
    }
    if (pattern && !pattern.test(value)) problems.push(`${where}: ${JSON.stringify(value)} breaks the pattern ${merged.pattern}`);
  }
  return problems;
}

function scalarFits(type, value) {
  const text = scalarText(value);
  switch (type) {
    case 'integer':
      return /^-?\d+$/.test(text);
    case 'number':
      return text.trim() !== '' && Number.isFinite(Number(text));
    case 'boolean':
      return text === 'true' || text === 'false';
    case 'string':
      return typeof value === 'string' || typeof value === 'number';
    case 'array':
      return true; // one scalar for a list: sent as a one-item list
    case 'object':
    case 'null':
    case 'file':
      return type === 'file' || false;
    default:
      return true;
  }
}

function mergeAllOf(doc, schema) {
  if (!Array.isArray(schema.allOf)) return schema;
  const merged = { ...schema, properties: { ...(schema.properties ?? {}) } };
  for (const part of schema.allOf) {
    const resolved = deref(doc, part);
    if (!resolved) continue;
    const inner = mergeAllOf(doc, resolved);
    Object.assign(merged.properties, inner.properties ?? {});
    for (const key of ['type', 'enum', 'items', 'additionalProperties', 'pattern', 'nullable']) {
      if (merged[key] === undefined && inner[key] !== undefined) merged[key] = inner[key];
    }
  }
  return merged;
}

/** Properties of an object schema and of every branch of its compositions. */
export function collectProperties(doc, rawSchema, seen = new Set()) {
  const schema = deref(doc, rawSchema);
  if (!schema || typeof schema !== 'object' || seen.has(schema)) return {};
  seen.add(schema);
  const properties = {};
  for (const part of [...(schema.allOf ?? []), ...(schema.oneOf ?? []), ...(schema.anyOf ?? [])]) {
    Object.assign(properties, collectProperties(doc, part, seen));
  }
  return Object.assign(properties, schema.properties ?? {});
}

/** Required properties of an object schema, following allOf. */
export function requiredProperties(doc, rawSchema) {
  const schema = deref(doc, rawSchema);
  if (!schema) return [];
  return [...(schema.required ?? []), ...(schema.allOf ?? []).flatMap((part) => requiredProperties(doc, part))];
}
