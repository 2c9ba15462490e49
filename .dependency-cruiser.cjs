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

/**
 * The planner's sub-stages (src/plan/), in the order they hand their values on: each may import from itself and the
 * ones before it. The in-between types (drafts.ts), the output types (tool-plan.ts) and the word and text helpers
 * (text/) come first; the composition at the top (plan-tools.ts, plan-round.ts, surface-of.ts) comes last.
 */
const PLAN_STAGES = [
  ['plan-types', '^src/plan/(drafts|tool-plan)[.]ts$'],
  ['plan-text', '^src/plan/text/'],
  ['plan-select', '^src/plan/select/'],
  ['plan-arguments', '^src/plan/arguments/'],
  ['plan-group', '^src/plan/group/'],
  ['plan-name', '^src/plan/name/'],
  ['plan-headers', '^src/plan/headers/'],
  ['plan-describe', '^src/plan/describe/'],
  ['plan-budget', '^src/plan/budget/'],
  ['plan-build', '^src/plan/build/'],
  ['plan-assemble', '^src/plan/assemble/'],
  ['plan-stage', '^src/plan/(plan-tools|plan-round|surface-of)[.]ts$'],
];

const downwardOnly = (layers) =>
  layers.slice(0, -1).map(([name, path], index) => ({
    name: `${name}-imports-downward-only`,
    comment: `${name} may import only from ${layers
      .slice(0, index + 1)
      .map(([below]) => below)
      .join(', ')}`,
    severity: 'error',
    from: { path },
    to: { path: layers.slice(index + 1).map(([, later]) => later) },
  }));

module.exports = {
  forbidden: [
    ...downwardOnly(LAYERS),
    ...downwardOnly(PLAN_STAGES),
    {
      name: 'emit-names-only-the-model-types',
      comment:
        'The emitter works from the plan: of the model it may name the IR types (api-model.ts), not what builds the model. A fact of OpenAPI both need belongs in the kernel.',
      severity: 'error',
      from: { path: '^src/emit/' },
      to: { path: '^src/model/', pathNot: '^src/model/api-model[.]ts$' },
    },
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
    {
      name: 'every-plan-module-in-a-sub-stage',
      comment: 'A planner module outside every sub-stage would escape the order above: give it a place in PLAN_STAGES.',
      severity: 'error',
      from: { path: '^src/plan/', pathNot: PLAN_STAGES.map(([, path]) => path) },
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
