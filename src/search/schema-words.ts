import { isJsonObject, type JsonObject, type JsonValue } from '../kernel/json.js';

/** Deepest level of nested fields whose names are indexed (1: the arguments' own fields). */
const MAX_DEPTH = 3;
/** Most field names and values indexed per action: the first levels first, so large bodies do not swamp the index. */
const MAX_WORDS = 60;
/** Longest list of allowed values indexed: a short list names states and kinds (`open`, `closed`); a long one is noise. */
const MAX_ENUM_VALUES = 10;

/**
 * What an action's arguments hold, in words: the names of the fields nested in them (Asana's `data.archived`, a
 * body's `state_reason`) and the values of their short enums (`statuses[]`: triggered, acknowledged, resolved;
 * `role`: observer …). A request often says the value it wants to set or filter by ("archive project", "the
 * high-urgency incidents still triggered"), which the action's summary does not. Walked breadth first through
 * `properties`, `items`, `allOf`/`anyOf`/`oneOf` and `$ref`s into the schema's `$defs`, each named schema once.
 */
export function schemaWords(schema: JsonObject): string[] {
  const defs = isJsonObject(schema['$defs']) ? schema['$defs'] : {};
  const words = new Set<string>();
  const seen = new Set<string>();
  let level: Array<{ node: JsonValue; depth: number }> = [];
  const top = isJsonObject(schema['properties']) ? schema['properties'] : {};
  for (const value of Object.values(top)) level.push({ node: value, depth: 1 });
  const add = (word: string) => {
    if (words.size < MAX_WORDS) words.add(word);
  };
  while (level.length > 0 && words.size < MAX_WORDS) {
    const next: Array<{ node: JsonValue; depth: number }> = [];
    for (const { node, depth } of level) {
      if (!isJsonObject(node)) continue;
      const enumeration = node['enum'];
      if (Array.isArray(enumeration) && enumeration.length <= MAX_ENUM_VALUES)
        for (const value of enumeration) if (typeof value === 'string') add(value);
      const ref = node['$ref'];
      if (typeof ref === 'string' && ref.startsWith('#/$defs/')) {
        const name = ref.slice('#/$defs/'.length);
        const target = Object.hasOwn(defs, name) ? defs[name] : undefined;
        if (!seen.has(name) && target !== undefined) {
          seen.add(name);
          next.push({ node: target, depth });
        }
      }
      for (const keyword of ['allOf', 'anyOf', 'oneOf'])
        for (const member of Array.isArray(node[keyword]) ? node[keyword] : []) next.push({ node: member, depth });
      if (node['items'] !== undefined) next.push({ node: node['items'], depth });
      const properties = node['properties'];
      if (isJsonObject(properties) && depth <= MAX_DEPTH)
        for (const [name, value] of Object.entries(properties)) {
          add(name);
          next.push({ node: value, depth: depth + 1 });
        }
    }
    level = next;
  }
  return [...words];
}
