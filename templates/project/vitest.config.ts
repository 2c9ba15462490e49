import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    // Starting the server imports every tool module (and the search index): seconds for large APIs on a busy machine.
    hookTimeout: 60_000,
  },
});
