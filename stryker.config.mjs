// Mutation testing of the actor machines (npm run mutants): Stryker changes one thing at a time
// in each machine (a guard, a target, a delay, a condition) and runs the machine's own tests
// against the change; a mutant they do not notice is a decision no test pins down. Not part of CI:
// it takes minutes and its figure is a review's, not a gate's.
export default {
  mutate: ['src/actors/**/*Machine.ts'],
  testRunner: 'vitest',
  vitest: { configFile: 'vite.config.ts', related: false },
  // The machines' own tests, which drive each machine alone (every path, every guard). Most of a
  // machine is its config, built once when the module loads, so nearly every mutant is "static":
  // it re-runs every test file given here. With the world-level actor tests too, a run took hours.
  testFiles: ['src/actors/**/*Machine.test.ts'],
  coverageAnalysis: 'perTest',
  concurrency: 2,
  reporters: ['clear-text', 'progress', 'json'],
  jsonReporter: { fileName: 'node_modules/.cache/lockstep/mutants.json' },
  // Not under node_modules: Vitest ignores every test file below a node_modules folder.
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
  thresholds: { high: 95, low: 90, break: null },
};
