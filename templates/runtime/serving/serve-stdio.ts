// MCP over stdio: nothing but JSON-RPC on stdout.

import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { checkConfirmationSettings } from '../calls/confirmation.js';
import type { Settings } from '../config/settings.js';
import { log } from '../core/log.js';
import { RateLimiter } from '../core/rate-limit.js';
import { createServer } from './server.js';

export function startStdio(settings: Settings): void {
  checkConfirmationSettings(settings);
  const limiter = new RateLimiter(settings.rateLimitPerMinute);
  serveStdio(() => createServer(settings, limiter), { onerror: (error) => log('error', `stdio: ${error.message}`) });
}
