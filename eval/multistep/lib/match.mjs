// What a request sent, as one flat map of arguments (query and body fields together: an RPC API such as Slack's takes
// the same argument in either), and the matchers the scripts and the scoring compare it with. Matchers are plain
// JSON, so a task's script can be stored and printed as it is:
//   "text"                  the value as text equals it ("5" equals 5, "true" equals true)
//   { "$anyOf": [m, …] }    one of the matchers matches (`{ "$absent": true }` among them lets the value be left out)
//   { "$pattern": "re", "$flags": "i" }   the value as text matches the regular expression
//   { "$set": ["a", "b"] }  a list (array, JSON array text or comma-separated text) with exactly these members
//   { "$absent": true }     not sent, or sent empty (Slack reads an empty cursor as none)
//   { "$present": true }    sent, not empty
//   { "$not": m }           the matcher does not match (an absent value never matches $not)
import { scalarText } from '../../lib/compare.mjs';

/** Query values (one value as text, repeated keys as a list) and body fields, body winning. */
export function argumentsOf(decoded) {
  const args = {};
  for (const [key, values] of Object.entries(decoded.query ?? {})) args[key] = values.length === 1 ? values[0] : values;
  if (decoded.body && typeof decoded.body === 'object' && !Array.isArray(decoded.body)) Object.assign(args, decoded.body);
  return args;
}

export function matches(matcher, value) {
  if (matcher && typeof matcher === 'object' && !Array.isArray(matcher)) {
    if ('$absent' in matcher) return isAbsent(value) === matcher.$absent;
    if ('$present' in matcher) return !isAbsent(value) === matcher.$present;
    if ('$anyOf' in matcher) return matcher.$anyOf.some((option) => matches(option, value));
    if (isAbsent(value)) return false;
    if ('$not' in matcher) return !matches(matcher.$not, value);
    if ('$pattern' in matcher) return new RegExp(matcher.$pattern, matcher.$flags ?? '').test(scalarText(value));
    if ('$set' in matcher) {
      const members = listOf(value).map(scalarText).sort();
      const wanted = matcher.$set.map(scalarText).sort();
      return members.length === wanted.length && members.every((member, index) => member === wanted[index]);
    }
    throw new Error(`unknown matcher ${JSON.stringify(matcher)}`);
  }
  if (isAbsent(value)) return false;
  return scalarText(matcher) === scalarText(value);
}

/** Whether every matcher of `params` matches the argument of that name. */
export function paramsMatch(params = {}, args) {
  return Object.entries(params).every(([name, matcher]) => matches(matcher, args[name]));
}

/** The first argument that does not match, as text, for the score's explanations. */
export function firstMismatch(params = {}, args) {
  for (const [name, matcher] of Object.entries(params)) {
    if (!matches(matcher, args[name]))
      return `${name}: sent ${args[name] === undefined ? 'nothing' : JSON.stringify(args[name])}, wanted ${JSON.stringify(matcher)}`;
  }
  return undefined;
}

export function isAbsent(value) {
  return value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);
}

/** A sent list: an array, a JSON array in text, or comma-separated text (spaces around commas ignored). */
export function listOf(value) {
  if (Array.isArray(value)) return value;
  if (isAbsent(value)) return [];
  const text = scalarText(value).trim();
  if (text.startsWith('[')) {
    try {
      const parsed = JSON.parse(text);
      if (Array.isArray(parsed)) return parsed;
    } catch {
      // not JSON: read it as comma-separated text
    }
  }
  return text.split(',').map((item) => item.trim());
}

/** Every string and number inside a JSON value, as text: what a response served. */
export function leavesOf(value, into = new Set()) {
  if (Array.isArray(value)) value.forEach((item) => leavesOf(item, into));
  else if (value && typeof value === 'object') Object.values(value).forEach((item) => leavesOf(item, into));
  else if (typeof value === 'string' || typeof value === 'number') into.add(String(value));
  return into;
}

/**
 * What a response says, as `path=value` facts, a list's items under `path[]`: `skeld.is_archived=true`,
 * `torps[]=U0AIKOTNKA`. A right sequence that reads its work back names the facts the read must show or must not.
 */
export function factsOf(value, at = '', into = new Set()) {
  if (Array.isArray(value)) value.forEach((item) => factsOf(item, `${at}[]`, into));
  else if (value && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) factsOf(inner, at ? `${at}.${key}` : key, into);
  } else into.add(`${at}=${value}`);
  return into;
}

/** The `shows` facts a body lacks and the `hides` facts it has, as text; empty when the read shows what it must. */
export function factProblems(body, { shows = [], hides = [] }) {
  const facts = factsOf(body);
  return [
    ...shows.filter((fact) => !facts.has(fact)).map((fact) => `does not show ${fact}`),
    ...hides.filter((fact) => facts.has(fact)).map((fact) => `still shows ${fact}`),
  ];
}
