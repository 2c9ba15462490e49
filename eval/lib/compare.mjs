// Comparing what a generated server sent with the ground truth. Scalars are compared as text ("5" equals 5, "true"
// equals true); the truth's body must be a subset of the sent body; arrays match element for element in any order.

export function scalarText(value) {
  if (value === null || value === undefined) return String(value);
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** Whether `sent` carries everything `truth` says; returns the first difference as text, or undefined. */
export function subsetDifference(truth, sent, where = 'body') {
  if (Array.isArray(truth)) {
    const list = asList(sent);
    if (!list) return `${where}: expected a list ${scalarText(truth)}, got ${scalarText(sent)}`;
    if (list.length !== truth.length) return `${where}: expected ${truth.length} items ${scalarText(truth)}, got ${scalarText(list)}`;
    const unused = [...list];
    for (const item of truth) {
      const index = unused.findIndex((candidate) => subsetDifference(item, candidate, where) === undefined);
      if (index < 0) return `${where}: ${scalarText(item)} not among ${scalarText(list)}`;
      unused.splice(index, 1);
    }
    return undefined;
  }
  if (truth && typeof truth === 'object') {
    const object = asObject(sent);
    if (!object) return `${where}: expected an object, got ${scalarText(sent)}`;
    for (const [key, value] of Object.entries(truth)) {
      if (!(key in object)) return `${where}.${key}: missing`;
      const difference = subsetDifference(value, object[key], `${where}.${key}`);
      if (difference) return difference;
    }
    return undefined;
  }
  return scalarText(truth) === scalarText(sent) ? undefined : `${where}: expected ${scalarText(truth)}, got ${scalarText(sent)}`;
}

/** A list as sent: an array, a JSON array in a string (form fields), or comma-separated text. */
function asList(sent) {
  if (Array.isArray(sent)) return sent;
  if (typeof sent !== 'string') return undefined;
  const parsed = parseJson(sent);
  if (Array.isArray(parsed)) return parsed;
  return sent.split(',');
}

/** An object as sent: an object, or a JSON object in a string (form fields such as a JSON-encoded attachment). */
function asObject(sent) {
  if (sent && typeof sent === 'object' && !Array.isArray(sent)) return sent;
  const parsed = typeof sent === 'string' ? parseJson(sent) : undefined;
  return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? parsed : undefined;
}

function parseJson(text) {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Every truth query key present with an equal value (repeated keys and comma-separated lists both accepted). */
export function queryDifference(truthQuery = {}, sentQuery) {
  for (const [key, value] of Object.entries(truthQuery)) {
    const sent = sentQuery[key];
    if (!sent) return `query ${key}: missing`;
    const single = sent.length === 1 ? sent[0] : sent;
    const difference = subsetDifference(value, Array.isArray(value) ? (sent.length === 1 ? sent[0] : sent) : single, `query ${key}`);
    if (difference) return difference;
  }
  return undefined;
}

export function pathDifference(truthParams = {}, sentParams) {
  for (const [name, value] of Object.entries(truthParams)) {
    if (scalarText(value) !== scalarText(sentParams[name]))
      return `path {${name}}: expected ${scalarText(value)}, got ${scalarText(sentParams[name])}`;
  }
  return undefined;
}
