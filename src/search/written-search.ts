import MiniSearch from 'minisearch';

/** One term's postings: field id → document id → how often the term is in that field of that document. */
type Postings = Map<number, Map<number, number>>;

/**
 * MiniSearch whose serialised form is written as text directly: what `JSON.stringify(this.toJSON())` writes,
 * without the tree of objects toJSON makes (one per term and field: Microsoft Graph's index is 6 MB of JSON). The
 * index worker serialises last, while the main thread, its catalog made, waits for it; the tree was also the
 * largest the worker's heap held. Reads the state toJSON reads (MiniSearch's protected fields); a unit test keeps
 * the two texts equal.
 */
export class WrittenSearch<T> extends MiniSearch<T> {
  toJSONText(): string {
    const head = JSON.stringify({
      documentCount: this._documentCount,
      nextId: this._nextId,
      documentIds: Object.fromEntries(this._documentIds),
      fieldIds: this._fieldIds,
      fieldLength: Object.fromEntries(this._fieldLength),
      averageFieldLength: this._avgFieldLength,
      storedFields: Object.fromEntries(this._storedFields),
      dirtCount: this._dirtCount,
    });
    const terms: string[] = [];
    for (const [term, postings] of this._index) terms.push(termText(term, postings as Postings));
    return `${head.slice(0, -1)},"index":[${terms.join(',')}],"serializationVersion":2}`;
  }
}

/** `[term, {fieldId: {documentId: count}}]` as JSON.stringify writes it: ids are integer keys, in ascending order. */
function termText(term: string, postings: Postings): string {
  let text = `[${JSON.stringify(term)},{`;
  let first = true;
  for (const [field, counts] of ascending(postings)) {
    text += `${first ? '' : ','}"${field}":{`;
    first = false;
    let firstCount = true;
    for (const [document, count] of ascending(counts)) {
      text += `${firstCount ? '' : ','}"${document}":${count}`;
      firstCount = false;
    }
    text += '}';
  }
  return `${text}}]`;
}

/**
 * A map's entries in ascending order of their (small, integer) keys, as an object of integer keys enumerates them:
 * documents are added in order, so postings usually are already.
 */
function ascending<V>(map: Map<number, V>): Iterable<[number, V]> {
  let previous = -1;
  for (const key of map.keys()) {
    if (key <= previous) return [...map].sort(([a], [b]) => a - b);
    previous = key;
  }
  return map;
}
