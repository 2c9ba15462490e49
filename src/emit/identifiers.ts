/** TypeScript identifiers and file names for tools; tool names are already `^[A-Za-z_][A-Za-z0-9_-]*$`. */

function parts(name: string): string[] {
  return name.split(/[_-]+/).filter(Boolean);
}

/** `pets_read` → `petsReadTool`; the suffix keeps names like `delete` or `class` legal. */
export function toolConstName(name: string): string {
  const [first = 'tool', ...rest] = parts(name).map((part) => part.toLowerCase());
  return `${first}${rest.map((part) => part.charAt(0).toUpperCase() + part.slice(1)).join('')}Tool`;
}

/** `pets_read` → `PetsReadArguments`. */
export function argumentsTypeName(name: string): string {
  return `${parts(name)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1).toLowerCase())
    .join('')}Arguments`;
}

/** `pets_read` → `pets-read.ts`. */
export function toolFileName(name: string): string {
  return `${parts(name)
    .map((part) => part.toLowerCase())
    .join('-')}.ts`;
}
