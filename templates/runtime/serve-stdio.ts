// MCP over stdio: nothing but JSON-RPC on stdout.

import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { checkConfirmationSettings } from './confirmation.js';
import { log } from './log.js';
import { RateLimiter } from './rate-limit.js';
import { createServer } from './server.js';
import type { Settings } from './settings.js';

export function startStdio(settings: Settings): void {
  checkConfirmationSettings(settings);
  const limiter = new RateLimiter(settings.rateLimitPerMinute);
  serveStdio(() => createServer(settings, limiter), { onerror: (error) => log('error', `stdio: ${error.message}`) });
}
