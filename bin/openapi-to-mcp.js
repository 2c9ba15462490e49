#!/usr/bin/env node
import { runCli } from '../dist/cli/main.js';

const color = Boolean(process.stderr.isTTY) && !('NO_COLOR' in process.env);
process.exitCode = await runCli(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  color,
  cwd: process.cwd(),
});
