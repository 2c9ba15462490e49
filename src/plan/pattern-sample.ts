/** Longest string a pattern sample may be: a description may ask for values no message or test should carry. */
const MAX_LENGTH = 4096;

/**
 * A string matching a simple regular expression: literals, escapes (\d \w \s), classes, groups with alternatives
 * and quantifiers. Returns undefined for constructs it does not know (the caller then tries other values).
 */
export function sampleFromPattern(pattern: string): string | undefined {
  let index = 0;
  const source = pattern.replace(/^\^/, '').replace(/\$$/, '');
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
    if ('*+?{'.includes(char)) return undefined;
    return char;
  };
  const parseQuantifier = (): number => {
    const char = source[index];
    if (char === '*' || char === '?') {
      index++;
      if (source[index] === '?') index++;
      return char === '*' ? 1 : 1;
    }
    if (char === '+') {
      index++;
      if (source[index] === '?') index++;
      return 1;
    }
    if (char === '{') {
      const match = /^\{(\d+)(,(\d*))?\}/.exec(source.slice(index));
      if (!match) return 1;
      index += match[0].length;
      // A lazy `{m,n}?` matches the same strings (AWS ARNs: `\d{12}?`).
      if (source[index] === '?') index++;
      return Number(match[1]);
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
