/** Where the white space of JSON text (and of YAML's flow, the same four characters) that starts at `at` ends. */
export function skipWhiteSpace(text: string, at: number): number {
  let next = at;
  for (;;) {
    const code = text.charCodeAt(next);
    if (code !== 0x20 && code !== 0x0a && code !== 0x0d && code !== 0x09) return next;
    next++;
  }
}
