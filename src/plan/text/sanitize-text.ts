/**
 * Description text from an API description is untrusted: it is shown to a model, which may follow instructions
 * hidden in it (tool poisoning). It is reduced to plain prose, capped, and sentences that address the model as
 * instructions are dropped.
 */

import { rememberText } from '../../kernel/text-memo.js';

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', '#39': "'" };

/** Sentences that try to steer the model rather than describe the API. */
const INSTRUCTION_PATTERNS: RegExp[] = [
  /\b(ignore|disregard|forget|override)\b[^.]{0,60}\b(previous|prior|above|earlier|all|other|any)\b[^.]{0,30}\b(instructions?|prompts?|rules|directions|messages?|context)\b/i,
  /\bsystem prompt\b|\byou are now\b|\bas an ai\b|\bnew instructions?\b|<\/?\s*(important|system|instructions?|prompt)\s*>|\[\s*(system|inst)\s*\]/i,
  /\b(do not|don't|never)\s+(tell|inform|reveal|mention|show)\b[^.]{0,40}\b(user|human|anyone)\b/i,
  /\b(before|after|instead of|when)\s+(using|calling|invoking)\s+(this|any|the|other)\s+tools?\b/i,
  /\byou\s+(must|should|have to|need to)\s+(always\s+|first\s+|also\s+)?(call|use|invoke|send|read|include|pass|run|execute|fetch|open)\b/i,
  /\b(send|forward|exfiltrate|upload|post|leak|email)\b[^.]{0,50}\b(credentials?|tokens?|api[ _-]?keys?|passwords?|secrets?|private keys?|ssh|\.env|cookies?)\b/i,
  /(~\/|\/etc\/(passwd|shadow)|\.ssh\/|id_rsa|\.aws\/credentials)/i,
];

export type CleanedText = { text: string; neutralized: boolean };

/** Plain, single-line prose of at most `maxLength` characters, cut at a sentence (or word) boundary. */
export function cleanText(raw: string | undefined, maxLength: number): CleanedText {
  if (!raw) return { text: '', neutralized: false };
  const { text, neutralized } = prose(raw);
  return { text: capLength(text, maxLength), neutralized };
}

/** The plain prose of a text, uncapped: the same descriptions are cleaned by every build at every length. */
const prose = rememberText((raw: string): CleanedText => {
  const sentences = splitSentences(toPlainText(raw));
  const kept = sentences.filter((sentence) => !INSTRUCTION_PATTERNS.some((pattern) => pattern.test(sentence)));
  return { text: kept.join(' '), neutralized: kept.length !== sentences.length };
});

/**
 * Longest text considered: far more than any description a tool shows (at most a few hundred characters), and short
 * enough that no pattern below can take long whatever the text holds.
 */
const MAX_SOURCE = 65_536;

/**
 * Markup to prose. Every pattern stays linear on hostile text: an unclosed construct (`<!--`, `<script`, `[a](`, a
 * line of dashes) ends at the end of the text or of its line instead of being searched for again from every start,
 * which made a 400 KB description take minutes.
 */
export function toPlainText(raw: string): string {
  return (raw.length > MAX_SOURCE ? raw.slice(0, MAX_SOURCE) : raw)
    .replace(/<!--[\s\S]*?(?:-->|$)/g, ' ')
    .replace(/```[\s\S]*?(```|$)/g, ' ')
    .replace(/<(script|style)\b[\s\S]*?(?:<\/\1\s*>|$)/gi, ' ')
    .replace(/<br\s*\/?>|<\/p>|<\/li>|<\/h\d>/gi, '. ')
    .replace(/<[^<>]*>/g, ' ')
    .replace(/&(#\d+|#x[0-9a-f]+|[a-z]+\d*);/gi, (entity, name: string) => decodeEntity(entity, name))
    .replace(/!\[[^[\]\n]*\]\([^()\n]*\)/g, ' ')
    .replace(/\[([^[\]\n]+)\]\([^()\n]*\)/g, '$1')
    .replace(/\[([^[\]\n]+)\]\[[^[\]\n]*\]/g, '$1')
    .replace(/^[ \t]*\[[^[\]\n]+\]:[ \t]*\S+.*$/gm, ' ')
    .replace(/^[ \t]{0,3}#{1,6}[ \t]*/gm, '')
    .replace(/^[ \t]*>[ \t]?/gm, '')
    .replace(/^(?=[ \t:|-]*\|)[ \t:|-]+$/gm, ' ')
    .replace(/^[ \t]*[-*+][ \t]+/gm, '; ')
    .replace(/(\*\*|__|~~)(.+?)\1/g, '$2')
    .replace(/(^|[\s(])[*_]([^*_\s][^*_]*?)[*_](?=[\s).,;:!?]|$)/g, '$1$2')
    .replace(/`([^`]*)`/g, '$1')
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g, '')
    .replace(/[\s\u2028\u2029\u00a0]+/g, ' ')
    .replace(/(\s*;\s*)+/g, '; ')
    .replace(/^[\s;.]+/, '')
    .replace(/\s+([.,;:!?])/g, '$1')
    .trim();
}

function decodeEntity(entity: string, name: string): string {
  if (name.startsWith('#x') || name.startsWith('#X')) return safeCodePoint(parseInt(name.slice(2), 16)) ?? entity;
  if (name.startsWith('#') && name !== '#39') return safeCodePoint(parseInt(name.slice(1), 10)) ?? entity;
  return ENTITIES[name.toLowerCase()] ?? entity;
}

function safeCodePoint(code: number): string | undefined {
  return Number.isInteger(code) && code > 31 && code < 0x110000 ? String.fromCodePoint(code) : undefined;
}

export function splitSentences(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+(?=[A-Z0-9"'(¿¡])/)
    .map((sentence) => sentence.trim())
    .filter(Boolean);
}

/** Cuts at the last sentence end that fits, else at a word boundary with an ellipsis. */
export function capLength(text: string, maxLength: number): string {
  if (maxLength <= 0) return '';
  if (text.length <= maxLength) return text;
  const window = text.slice(0, maxLength);
  const sentenceEnd = Math.max(window.lastIndexOf('. '), window.lastIndexOf('! '), window.lastIndexOf('? '));
  if (sentenceEnd > maxLength * 0.5) return window.slice(0, sentenceEnd + 1);
  const wordEnd = window.lastIndexOf(' ');
  return `${(wordEnd > maxLength * 0.5 ? window.slice(0, wordEnd) : window.slice(0, maxLength - 1)).replace(/[\s,;:.-]+$/, '')}…`;
}

/**
 * A phrase of at most `maxLength` characters that ends where the text's sense does: the whole text when it fits, else
 * its first sentence, else its first clause (up to a comma, semicolon, colon, parenthesis or dash) that fits, else
 * nothing. Text a model reads is cut at whole phrases, never mid-sentence.
 */
export function wholePhrase(text: string, maxLength: number): string {
  const trimmed = text.trim();
  if (trimmed.length <= maxLength) return trimmed;
  const sentence = splitSentences(trimmed)[0] ?? '';
  if (sentence.length <= maxLength) return sentence;
  const clause = /^(.{12,}?)(?:[,;:(]| - | – )/.exec(sentence.slice(0, maxLength + 1))?.[1]?.trim();
  return clause && clause.length <= maxLength ? clause : '';
}

/** The first sentence, as a short summary. */
export function firstSentence(text: string, maxLength: number): string {
  return capLength(splitSentences(text)[0] ?? '', maxLength).replace(/[.!?]$/, '');
}
