import { singular } from '../text/resource-words.js';
import { capLength, cleanText, firstSentence } from '../text/sanitize-text.js';
import { wordsOf } from '../text/words.js';

/** Words that carry no meaning of their own in an argument's description. */
const FILLER = new Set(
  'a an the of for to in on by and or is are be it its this that with from as at which what id ids identifier unique name number value values given specified'.split(
    ' ',
  ),
);

/**
 * What arguments' descriptions say, at a detail level's length. A plan builds each tool at several levels and in
 * several rounds, with the same arguments every time: the cleaning is done once per description (and length, or
 * argument name) for every build that shares this object.
 */
export class ArgumentPhrases {
  private readonly cleaned = new Map<string, string>();
  private readonly informative = new Map<string, string>();

  /** The description cleaned, at most `maxLength` characters (the fuller levels). */
  full(description: string | undefined, maxLength: number): string {
    if (description === undefined) return cleanText(description, maxLength).text;
    const key = `${maxLength}\u0000${description}`;
    let text = this.cleaned.get(key);
    if (text === undefined) {
      text = cleanText(description, maxLength).text;
      this.cleaned.set(key, text);
    }
    return text;
  }

  /**
   * A short phrase of an argument's meaning, at the lean levels: its description capped, or nothing when the
   * description only says what the argument's name does ("The unique identifier of the release." for `release_id`).
   */
  phrase(description: string | undefined, argument: string, maxLength: number): string {
    if (maxLength <= 0) return '';
    const key = `${argument}\u0000${description ?? ''}`;
    let text = this.informative.get(key);
    if (text === undefined) {
      text = informativeSentence(description, argument);
      this.informative.set(key, text);
    }
    return capLength(text, maxLength);
  }
}

/** The description's first sentence, or nothing when it adds no word to the argument's name. */
function informativeSentence(description: string | undefined, argument: string): string {
  const text = cleanText(description, 400).text;
  const named = new Set(wordsOf(argument).map(singular));
  const adds = wordsOf(text).filter((word) => !FILLER.has(word) && !named.has(singular(word)));
  return adds.length === 0 ? '' : firstSentence(text, 400);
}
