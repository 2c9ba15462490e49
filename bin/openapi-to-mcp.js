#!/usr/bin/env node
import { colorEnabled, runCli } from '../dist/bundle/cli.js';

process.exitCode = await runCli(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  color: colorEnabled(process.env, Boolean(process.stderr.isTTY)),
  cwd: process.cwd(),
  stderrIsTTY: Boolean(process.stderr.isTTY),
  env: process.env,
});
