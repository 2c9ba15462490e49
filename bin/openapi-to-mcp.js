#!/usr/bin/env node
import { runCliInThread } from '../dist/bundle/cli-host.js';

process.exitCode = await runCliInThread(new URL('../dist/bundle/cli-thread.js', import.meta.url), process.argv.slice(2));
