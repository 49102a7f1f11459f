// Totals the test runners' JSON reports plus the pass/fail of each check step into the
// one line CI reads: "N passed, N failed". Exits 1 when anything failed.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const [dir, checksPassed, checksFailed] = process.argv.slice(2);
let passed = 0;
let failed = 0;

// One report per Vitest run (the reality check runs apart from the unit tests: see .ci/test.sh).
for (const file of readdirSync(dir).filter((f) => /^vitest.*\.json$/.test(f))) {
  const report = JSON.parse(readFileSync(join(dir, file), 'utf8'));
  passed += report.numPassedTests;
  failed += report.numFailedTests;
}

// One report per Playwright run (the course walks run apart from the rest: see .ci/test.sh).
for (const file of readdirSync(dir).filter((f) => /^playwright.*\.json$/.test(f))) {
  const { stats } = JSON.parse(readFileSync(join(dir, file), 'utf8'));
  passed += stats.expected + (stats.flaky ?? 0);
  failed += stats.unexpected;
}

// Each non-test step (typecheck, lint, lessons:check, build...) counts as one check.
passed += Number(checksPassed);
failed += Number(checksFailed);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
