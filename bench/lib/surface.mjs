// The tool surface a model sees: the tools of a live `tools/list` answer and their o200k tokens.
import { createRequire } from 'node:module';
import { startServer } from './stdio-client.mjs';

const require = createRequire(import.meta.url);
const { countTokens } = require('gpt-tokenizer/cjs/encoding/o200k_base');

/** Starts the built server, lists its tools and counts the tokens of the `tools` array as JSON. */
export async function measureSurface(project) {
  const server = startServer(process.execPath, [project.entry], { cwd: project.dir, env: project.env('http://127.0.0.1:9') });
  try {
    await server.initialize();
    const { tools } = await server.request('tools/list');
    const text = JSON.stringify(tools);
    const perTool = tools.map((tool) => countTokens(JSON.stringify(tool), { disallowedSpecial: new Set() }));
    return {
      tools: tools.length,
      tokens: countTokens(text, { disallowedSpecial: new Set() }),
      bytes: Buffer.byteLength(text),
      largestTool: Math.max(0, ...perTool),
    };
  } finally {
    await server.close();
  }
}
