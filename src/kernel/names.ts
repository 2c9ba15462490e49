/** Tool and action names: what every client accepts and the generated server can register. */

/** Names valid for Claude, OpenAI and Gemini at once. */
const TOOL_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/;

/**
 * A name the generated server can register: valid, and not a property every object inherits. The MCP SDK keeps tools
 * in a plain object, so a tool named `constructor` is refused as "already registered" and the server never starts.
 */
export function isUsableName(name: string): boolean {
  return TOOL_NAME_PATTERN.test(name) && !(name in Object.prototype);
}
