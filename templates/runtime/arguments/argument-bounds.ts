// Bounds on the shape of tool arguments, checked before any schema sees them. Arguments of hundreds of thousands of
// keys kept the event loop busy for seconds (the validator collects an error per key), and arguments nested
// thousands of levels deep overflowed the stack of the checks that walk them; the request body itself is bounded in
// bytes before it is parsed (MAX_REQUEST_BYTES over HTTP).

/** No API description this server was generated from nests its schemas deeper (they are cut at 64 levels). */
export const MAX_ARGUMENT_DEPTH = 64;
/** Values in all (object members and array items, nested ones included): far above any real call. */
export const MAX_ARGUMENT_VALUES = 50_000;

/**
 * What is wrong with the arguments' shape, in words a model can act on; undefined when they are within bounds. The
 * walk stops at the first bound it passes, so it costs at most MAX_ARGUMENT_VALUES steps whatever it is given.
 */
export function argumentBoundsProblem(args: unknown): string | undefined {
  let values = 0;
  const stack: Array<{ value: unknown; depth: number }> = [{ value: args, depth: 0 }];
  while (stack.length > 0) {
    const { value, depth } = stack.pop() as { value: unknown; depth: number };
    if (value === null || typeof value !== 'object') continue;
    if (depth >= MAX_ARGUMENT_DEPTH)
      return `The arguments nest deeper than ${MAX_ARGUMENT_DEPTH} levels, more than any argument of this API takes. Nothing was sent: send the values the tool's schema describes.`;
    const items = Array.isArray(value) ? value : Object.values(value as Record<string, unknown>);
    values += items.length;
    if (values > MAX_ARGUMENT_VALUES)
      return `The arguments hold more than ${MAX_ARGUMENT_VALUES.toLocaleString('en-US')} values, more than this server accepts in one call. Nothing was sent: send fewer items (split the work into several calls) or only the fields the tool's schema describes.`;
    for (const item of items)
      if (item !== null && typeof item === 'object') stack.push({ value: item, depth: depth + 1 });
  }
  return undefined;
}

/** Values of a whole request body at most: past this even parsing and checking the message's envelope takes long. */
export const MAX_BODY_VALUES = 100_000;
/** Nesting of a whole request body at most: the envelope and the arguments, far past MAX_ARGUMENT_DEPTH. */
export const MAX_BODY_DEPTH = 1_000;

/**
 * The same bounds on a request body's JSON text, before anything parses it: one pass over the characters, counting
 * values (by their separators) and nesting outside strings. Undefined when within bounds (or not JSON at all: the
 * handler answers that).
 */
export function bodyBoundsProblem(text: string): string | undefined {
  let depth = 0;
  let values = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === 0x5c) index++;
      else if (code === 0x22) inString = false;
      continue;
    }
    if (code === 0x22) inString = true;
    else if (code === 0x7b || code === 0x5b) {
      if (++depth > MAX_BODY_DEPTH)
        return `The request nests deeper than ${MAX_BODY_DEPTH} levels; tool arguments may nest ${MAX_ARGUMENT_DEPTH} at most. Nothing was sent.`;
      values++;
    } else if (code === 0x7d || code === 0x5d) depth--;
    else if (code === 0x2c && ++values > MAX_BODY_VALUES)
      return `The request holds more than ${MAX_BODY_VALUES.toLocaleString('en-US')} values; tool arguments may hold ${MAX_ARGUMENT_VALUES.toLocaleString('en-US')} at most. Nothing was sent: send fewer items per call.`;
  }
  return undefined;
}
