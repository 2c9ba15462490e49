import { singular } from '../text/resource-words.js';
import { cleanText, splitSentences, wholePhrase } from '../text/sanitize-text.js';
import { wordsOf } from '../text/words.js';

/** Words that carry no meaning of their own in an argument's description. */
const FILLER = new Set(
  'a an the of for to in on by and or is are be it its this that with from as at which what id ids identifier unique name number value values given specified'.split(
    ' ',
  ),
);

/**
 * A sentence that says what an argument is not, or must not be (`This is not the number shown to users.`, `Never the
 * email address.`): the one a model needs most to get a value right, so it stays at every detail level.
 */
const CAUTION = /\b(not|never|no longer|instead of|rather than|unlike|cannot|can't|don't|doesn't|isn't|must not)\b/i;

/** Longest caution kept: past it, a sentence is an essay, and the schema's other words must carry the meaning. */
const MAX_CAUTION = 200;

/**
 * What arguments' descriptions say, at a detail level's length, cut at whole sentences (a phrase that ends mid-sentence
 * can say the opposite of the whole). A plan builds each tool at several levels and in several rounds, with the same
 * arguments every time: the cleaning is done once per description (and length, or argument name) for every build
 * that shares this object.
 */
export class ArgumentPhrases {
  /**
   * By length, then description (then argument name): the model's own strings as keys, which keep their hashes,
   * where a key joined from the parts was a new string to flatten and hash on every look-up.
   */
  private readonly cleaned = new Map<number, Map<string, string>>();
  private readonly informative = new Map<number, Map<string, Map<string, string>>>();

  /** As many whole sentences of the description as fit in `maxLength` characters, its cautions always (the fuller levels). */
  full(description: string | undefined, maxLength: number): string {
    if (description === undefined) return '';
    const byText = inner(this.cleaned, maxLength);
    let text = byText.get(description);
    if (text === undefined) {
      text = wholeSentences(splitSentences(cleanText(description, Number.MAX_SAFE_INTEGER).text), maxLength);
      byText.set(description, text);
    }
    return text;
  }

  /**
   * A short phrase of an argument's meaning, at the lean levels: the first sentence that says more than the
   * argument's name does ("The unique identifier of the release." for `release_id` says nothing), whole or as its
   * first clause, and the description's caution whatever the level.
   */
  phrase(description: string | undefined, argument: string, maxLength: number): string {
    const byArgument = inner(inner(this.informative, maxLength), description ?? '');
    let text = byArgument.get(argument);
    if (text === undefined) {
      text = informativePhrase(description, argument, maxLength);
      byArgument.set(argument, text);
    }
    return text;
  }
}

function inner<K, V>(outer: Map<K, Map<string, V>>, key: K): Map<string, V> {
  let map = outer.get(key);
  if (!map) {
    map = new Map();
    outer.set(key, map);
  }
  return map;
}

/** Sentences in order while they fit, then the first caution left out; the first sentence as a clause when only that fits. */
function wholeSentences(sentences: string[], maxLength: number): string {
  const kept: string[] = [];
  let length = 0;
  for (const sentence of sentences) {
    if (length + sentence.length + (kept.length > 0 ? 1 : 0) > maxLength) break;
    kept.push(sentence);
    length += sentence.length + (kept.length > 1 ? 1 : 0);
  }
  if (kept.length === 0 && sentences[0]) {
    const clause = wholePhrase(sentences[0], maxLength);
    if (clause) kept.push(clause);
  }
  const caution = sentences.slice(kept.length).find(isCaution);
  if (caution && !kept.some(isCaution)) kept.push(caution);
  return kept.join(' ');
}

function isCaution(sentence: string): boolean {
  return sentence.length <= MAX_CAUTION && CAUTION.test(sentence);
}

function informativePhrase(description: string | undefined, argument: string, maxLength: number): string {
  const sentences = splitSentences(cleanText(description, Number.MAX_SAFE_INTEGER).text);
  const named = new Set(wordsOf(argument).map(singular));
  const adds = (sentence: string) => wordsOf(sentence).some((word) => !FILLER.has(word) && !named.has(singular(word)));
  const first = sentences.find(adds);
  const caution = sentences.find(isCaution);
  // A caution is kept whole, even when it is also the sentence that says what the argument is.
  if (first && first === caution) return first;
  const phrase = first && maxLength > 0 ? wholePhrase(first.replace(/[.!?]$/, ''), maxLength) : '';
  return [phrase, caution ?? ''].filter(Boolean).join('. ');
}
