/**
 * The layering of src/, enforced (`npm run lint:imports`, run by CI). A module may import from its own layer and the
 * layers listed before it, never from one after it: the pipeline's stages import only downward, nothing imports the
 * command line, and the shared kernel imports nothing of ours.
 */
const LAYERS = [
  ['kernel', '^src/kernel/'],
  ['diagnostics', '^src/diagnostics/'],
  ['surface', '^src/surface/'],
  ['load', '^src/load/'],
  ['model', '^src/model/'],
  ['plan', '^src/plan/'],
  ['search', '^src/search/'],
  ['emit', '^src/emit/'],
  ['write', '^src/write/'],
  ['cache', '^src/cache/'],
  ['report', '^src/report/'],
  ['config', '^src/config/'],
  ['pipeline', '^src/(pipeline|check-options)[.]ts$'],
  ['api', '^src/index[.]ts$'],
  ['cli', '^src/cli/'],
];

const upward = LAYERS.slice(0, -1).map(([name, path], index) => ({
  name: `${name}-imports-downward-only`,
  comment: `${name} may import only from ${LAYERS.slice(0, index + 1)
    .map(([below]) => below)
    .join(', ')}`,
  severity: 'error',
  from: { path },
  to: { path: LAYERS.slice(index + 1).map(([, later]) => later) },
}));

module.exports = {
  forbidden: [
    ...upward,
    {
      name: 'no-cycles',
      comment: 'Modules that import each other, directly or through others, cannot be read or tested apart.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'every-module-in-a-layer',
      comment: 'A module outside every layer would escape the rules above: give it a place in LAYERS.',
      severity: 'error',
      from: { path: '^src/', pathNot: LAYERS.map(([, path]) => path) },
      to: {},
    },
  ],
  options: {
    // TypeScript 7 has no JavaScript compiler API: swc parses the sources, type-only imports included.
    parser: 'swc',
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^src/.*[.]d[.]ts$' },
  },
};
