#!/usr/bin/env bash
# Runs every test Lockstep has and ends with one line: "N passed, N failed".
# It installs what the tests need first (Debian's chromium, redis-server and faketime when missing),
# so `npm ci && npm test` works on a fresh machine.
set -uo pipefail
cd "$(dirname "$0")/.."
bash .ci/ensureSystemDeps.sh || { echo "0 passed, 1 failed"; exit 1; }

out=.test-results
rm -rf "$out" && mkdir -p "$out"
checks_passed=0
checks_failed=0
check() { # name, command... (prints how long the step took: the reality step has a 4-minute budget)
  local name=$1 start=$SECONDS; shift
  echo "== $name"
  if "$@"; then checks_passed=$((checks_passed + 1)); else checks_failed=$((checks_failed + 1)); echo "!! $name failed"; fi
  echo "== $name: $((SECONDS - start)) s"
}

check "typecheck" npx tsc --noEmit
check "lint" npx eslint . --max-warnings 0
check "unit tests (vitest)" npx vitest run --reporter=default --reporter=json --outputFile.json="$out/vitest.json"
LOCKSTEP_REALITY=1 check "reality check (real redis-server and client processes)" npx vitest run src/reality --reporter=default --reporter=json --outputFile.json="$out/vitest-reality.json"
check "lessons:check" npm run -s lessons:check
if [ -f ../shared/tools/prose-overlap.mjs ]; then
  check "lesson prose is our own" node ../shared/tools/prose-overlap.mjs lessons
fi
check "build" npx vite build --logLevel warn
PLAYWRIGHT_JSON_OUTPUT_NAME="$out/playwright-courses.json" check "end-to-end: course walks (playwright, two at once)" npx playwright test --project=course-walks --workers=2 --reporter=list,json
PLAYWRIGHT_JSON_OUTPUT_NAME="$out/playwright.json" check "end-to-end: player, workbench, sandbox (playwright)" npx playwright test --project=player --reporter=list,json

node .ci/summarizeTests.mjs "$out" "$checks_passed" "$checks_failed"
