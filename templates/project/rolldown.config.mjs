// The second step of `npm run build`: tsc's modules in dist/ bundled, with the packages they import, into dist/main.js
// (what `npm start`, the Docker image and MCP clients run) and a few chunks in dist/chunks/ that load only when used
// (the HTTP transport, the argument checks' compiler). Node then reads a handful of files at start instead of some
// two hundred and resolves no package on the way, which was most of a large server's time to its first `tools/list`.
// The other modules in dist/ stay as tsc wrote them.
import { defineConfig } from 'rolldown';

export default defineConfig({
  input: 'dist/main.js',
  platform: 'node',
  output: {
    dir: 'dist',
    entryFileNames: 'main.js',
    chunkFileNames: 'chunks/[name].js',
  },
});
