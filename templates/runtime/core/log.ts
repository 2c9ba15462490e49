// Logging to stderr only: in stdio mode stdout carries nothing but JSON-RPC.

import { redact } from './redact.js';

const LEVELS = { error: 0, warn: 1, info: 2, debug: 3 } as const;
export type LogLevel = keyof typeof LEVELS;

let threshold: LogLevel = 'warn';

export function setLogLevel(level: LogLevel): void {
  threshold = level;
}

/** Writes one line to stderr; known secrets are redacted first. */
export function log(level: LogLevel, message: string): void {
  if (LEVELS[level] > LEVELS[threshold]) return;
  process.stderr.write(`${level}: ${redact(message)}\n`);
}
