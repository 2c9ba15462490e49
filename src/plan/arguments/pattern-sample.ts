/** Longest string a pattern sample may be: a description may ask for values no message or test should carry. */
const MAX_LENGTH = 4096;

/**
 * A string matching a simple regular expression: literals, escapes (\d \w \s), classes, groups with alternatives,
 * anchors and quantifiers, at least `minLength` long where an unbounded quantifier (`*`, `+`, `{m,}`) can make it so
 * (AWS: `arn:\S+` of at least 20 characters). Returns undefined for constructs it does not know (the caller then
 * tries other values); the caller checks the sample against the pattern and the lengths.
 */
export function sampleFromPattern(pattern: string, minLength = 0): string | undefined {
  const once = sampleWithRepeats(pattern, 1);
  if (once === undefined || once.length >= minLength) return once;
  const twice = sampleWithRepeats(pattern, 2);
  if (twice === undefined || twice.length <= once.length) return once;
  // Each further repetition of the unbounded parts adds as much as the second did.
  const repeats = 1 + Math.ceil((minLength - once.length) / (twice.length - once.length));
  return sampleWithRepeats(pattern, repeats) ?? once;
}

/** The sample with each unbounded quantifier taken `repeats` times (at least its minimum). */
function sampleWithRepeats(source: string, repeats: number): string | undefined {
  let index = 0;
  const parseSequence = (): string | undefined => {
    let out = '';
    while (index < source.length && source[index] !== '|' && source[index] !== ')') {
      const atom = parseAtom();
      if (atom === undefined) return undefined;
      const repeat = parseQuantifier();
      if (repeat > MAX_LENGTH || out.length + atom.length * repeat > MAX_LENGTH) return undefined;
      out += atom.repeat(repeat);
    }
    return out;
  };
  const parseAlternatives = (): string | undefined => {
    const first = parseSequence();
    while (source[index] === '|') {
      index++;
      parseSequence();
    }
    return first;
  };
  const parseAtom = (): string | undefined => {
    const char = source[index++];
    if (char === undefined) return undefined;
    if (char === '(') {
      if (source.startsWith('?:', index)) index += 2;
      else if (source[index] === '?') return undefined;
      const inner = parseAlternatives();
      if (source[index++] !== ')') return undefined;
      return inner;
    }
    if (char === '[') {
      const end = source.indexOf(']', index + 1);
      if (end < 0) return undefined;
      const body = source.slice(index, end);
      index = end + 1;
      if (body.startsWith('^')) return body.includes('a') ? 'b' : 'a';
      const range = /^\\?(.)-(.)/.exec(body);
      if (body.startsWith('\\d')) return '1';
      if (body.startsWith('\\w')) return 'a';
      return range ? (range[1] ?? 'a') : body.replace(/\\/g, '')[0];
    }
    if (char === '\\') {
      const escaped = source[index++];
      return { d: '1', w: 'a', s: ' ', D: 'a', W: '-', S: 'a', '.': '.', '-': '-' }[escaped ?? ''] ?? escaped;
    }
    if (char === '.') return 'a';
    // Anchors match no character, wherever they stand (`(^arn:…$)` wraps them in a group).
    if (char === '^' || char === '$') return '';
    if ('*+?{'.includes(char)) return undefined;
    return char;
  };
  const parseQuantifier = (): number => {
    const char = source[index];
    if (char === '?') {
      index++;
      if (source[index] === '?') index++;
      // One repetition satisfies `?` and keeps the optional part visible in the sample.
      return 1;
    }
    if (char === '*' || char === '+') {
      index++;
      if (source[index] === '?') index++;
      return repeats;
    }
    if (char === '{') {
      const match = /^\{(\d+)(,(\d*))?\}/.exec(source.slice(index));
      if (!match) return 1;
      index += match[0].length;
      // A lazy `{m,n}?` matches the same strings (AWS ARNs: `\d{12}?`).
      if (source[index] === '?') index++;
      const least = Number(match[1]);
      return match[2] !== undefined && match[3] === '' ? least + repeats - 1 : least;
    }
    return 1;
  };
  try {
    const result = parseAlternatives();
    return index >= source.length ? result : undefined;
  } catch {
    return undefined;
  }
}
