import type { JsonObject } from '../../kernel/json.js';
import type { ToolAnnotations } from '../tool-plan.js';
import { O200kCounter } from './o200k-count.js';

let loaded: O200kCounter | undefined;

/**
 * The o200k counter, loaded on the first count: commands that never plan (`--help`, `--version`, a description that
 * fails to load) need not read its table.
 */
function o200k(): O200kCounter {
  loaded ??= O200kCounter.load();
  return loaded;
}

type ListedTool = { name: string; title: string; description: string; inputSchema: JsonObject; annotations: ToolAnnotations };

/** A tool's entry in `tools/list`: the fields a client serialises, in its order (sizes and counts are of this). */
export function listedEntry(tool: ListedTool): ListedTool {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: tool.inputSchema,
    annotations: tool.annotations,
  };
}

/** A tool's entry in `tools/list`, as a client serialises it. */
function listedJson(tool: ListedTool): string {
  return JSON.stringify(listedEntry(tool));
}

/** o200k tokens of a tool's entry in `tools/list`. */
export function countToolTokens(tool: ListedTool): number {
  return countText(listedJson(tool));
}

/**
 * A cheap count for the budget search, which renders every tool at several detail levels: characters over a ratio
 * calibrated on exact counts of the same API's tools (JSON of English text runs about 4.4 characters a token; other
 * scripts far fewer). Within a few percent a tool, and closer on a whole list; the plan reports exact counts.
 */
export class TokenEstimate {
  constructor(private readonly ratio = 4.4) {}

  /** Characters a count is made from; kept with a built tool so that a recalibration needs no new build. */
  static characters(tool: ListedTool): number {
    return listedJson(tool).length;
  }

  /** An estimate with the ratio of exact counts of tools (their o200k tokens); this one when there are none. */
  calibrated(tools: Array<ListedTool & { tokens: number }>): TokenEstimate {
    const characters = tools.reduce((sum, tool) => sum + TokenEstimate.characters(tool), 0);
    const tokens = tools.reduce((sum, tool) => sum + tool.tokens, 0);
    return tokens > 0 ? new TokenEstimate(characters / tokens) : this;
  }

  fromCharacters(characters: number): number {
    return Math.ceil(characters / this.ratio);
  }
}

/** Longer than any word: a run of this many characters without white space is counted slice by slice. */
const LONG_RUN = 1_000;

/** Whether a character below U+0080 is one that `\s` matches: tab, line feed, vertical tab, form feed, return, space. */
const isAsciiSpace = (code: number) => code === 0x20 || (code >= 0x09 && code <= 0x0d);
const UNICODE_SPACE = /\s/;

/**
 * Whether `text` has LONG_RUN characters in a row without white space (what `/\S{1000}/` tests). A linear scan:
 * the regular expression restarts at every position and rescans the run, which on JSON (long stretches without
 * spaces) was the most expensive line of a large plan.
 */
function hasLongRun(text: string): boolean {
  let run = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    const space = code < 0x80 ? isAsciiSpace(code) : UNICODE_SPACE.test(text.charAt(index));
    run = space ? 0 : run + 1;
    if (run >= LONG_RUN) return true;
  }
  return false;
}

/**
 * Byte-pair merging is quadratic in the length of one pre-token, and a description can hold a megabyte-long "word"
 * (an enum value, a property name): counted whole it takes hours. Such texts are counted in slices, an estimate off
 * by a token per slice; every other text is counted exactly as before.
 */
function countText(text: string): number {
  const counter = o200k();
  if (!hasLongRun(text)) return counter.count(text);
  let total = 0;
  for (let start = 0; start < text.length; start += LONG_RUN) total += counter.count(text.slice(start, start + LONG_RUN));
  return total;
}
