/**
 * Output whose reader went away (`openapi-to-mcp plan --json | head`): writing to it fails with EPIPE, which Node
 * raises as an unhandled 'error' event — a stack trace and exit 1 after the reader already has what it wanted. What
 * is left to print is dropped instead: the command still finishes its work (a generation's files and cache) and exits
 * with its own code. `onClosed` is told once, for a command that would otherwise run and print on (--watch).
 */
export function dropOutputOnClosedPipe(onClosed: () => void): void {
  let told = false;
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') throw error;
      if (told) return;
      told = true;
      onClosed();
    });
  }
}
