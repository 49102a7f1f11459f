#!/usr/bin/env bash
# Runs every test Lockstep has and ends with one line: "N passed, N failed".
# It installs what the tests need first (Debian's chromium, redis-server, faketime and etcd when missing),
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
# Steps that each keep one core busy and need nothing another makes run side by side (the machine
# has two cores): check_along starts one, `settle` waits for them all, then prints each one's output
# whole, in the order started, and counts it as `check` does.
along=()
check_along() { # name, command...
  local name=$1 log="$out/step-${#along[@]}"; shift
  ( start=$SECONDS; "$@" >"$log.log" 2>&1; echo "$? $((SECONDS - start))" >"$log.rc" ) &
  along+=("$name")
}
settle() {
  wait
  local i rc took
  for i in "${!along[@]}"; do
    read -r rc took <"$out/step-$i.rc"
    echo "== ${along[$i]}"
    cat "$out/step-$i.log"
    if [ "$rc" -eq 0 ]; then checks_passed=$((checks_passed + 1)); else checks_failed=$((checks_failed + 1)); echo "!! ${along[$i]} failed"; fi
    echo "== ${along[$i]}: $took s (alongside the others)"
  done
  along=()
}

check_along "typecheck" npx tsc --noEmit
check_along "lint" npx eslint . --max-warnings 0
check_along "dead code (knip: unused files, exports, dependencies)" npx knip --no-progress
check_along "formatting (prettier --check; npm run format fixes it)" npm run -s format:check
settle
check "unit tests (vitest)" npx vitest run --reporter=default --reporter=json --outputFile.json="$out/vitest.json"
# One file at a time: each runs real processes on real timers, and the failover runs' sentinels
# beside the headline runs made two of those miss their windows (at load 11).
LOCKSTEP_REALITY=1 check "reality check (real redis-server and client processes)" npx vitest run src/reality --no-file-parallelism --reporter=default --reporter=json --outputFile.json="$out/vitest-reality.json"
check_along "lessons:check" npm run -s lessons:check
if [ -f ../shared/tools/prose-overlap.mjs ]; then
  check_along "lesson prose is our own" node ../shared/tools/prose-overlap.mjs lessons
fi
check_along "build" npx vite build --logLevel warn
settle
PLAYWRIGHT_JSON_OUTPUT_NAME="$out/playwright-courses.json" check "end-to-end: course walks (playwright, two at once)" npx playwright test --project=course-walks --workers=2 --reporter=list,json
# Two workers: all 144 passed in 5.6 min beside reality runs and builds, and in 6.3 min beside a
# whole unit-test run (7.4 min with one worker on a quiet machine). The specs that time the page
# (`timing`, playwright.config.ts) then run alone, as their own step, one at a time.
PLAYWRIGHT_JSON_OUTPUT_NAME="$out/playwright.json" check "end-to-end: player, workbench, sandbox (playwright, two at once)" npx playwright test --project=player --workers=2 --reporter=list,json
PLAYWRIGHT_JSON_OUTPUT_NAME="$out/playwright-timing.json" check "end-to-end: timing (playwright, alone)" npx playwright test --project=timing --workers=1 --reporter=list,json

node .ci/summarizeTests.mjs "$out" "$checks_passed" "$checks_failed"
