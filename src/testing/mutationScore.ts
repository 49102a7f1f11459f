// `npm run mutants [-- name...]`: the mutation score of the XState machines (issue 33). Each
// mutant of a machine (machineMutants.ts) is written over the machine's file, the machine's
// tests and its actor's tests run against it, and the file is put back. A mutant the tests
// fail on is killed; one they pass is a survivor, printed with its line. Below 90 % killed,
// for any machine or overall, the exit code is 1.
//
// The tests run through Vitest's Node API in one process for the whole run: a Vitest process
// per mutant spent most of its 15–25 s (on a busy 2-core machine) starting up.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createVitest, type Vitest } from 'vitest/node';
import { machineMutants, type Mutant } from './machineMutants';

interface Machine {
  file: string;
  /** The machine's own tests, then those of the actor that drives it. */
  tests: string[];
  /** Mutants that cannot change what the machine does, by description, each with why. */
  equivalent: Record<string, string>;
}

const MACHINES: Record<string, Machine> = {
  circuitBreaker: {
    file: 'src/actors/client/circuitBreakerMachine.ts',
    tests: ['src/actors/client/circuitBreakerMachine.test.ts', 'src/actors/recipes/patterns.test.ts'],
    equivalent: {},
  },
  stepClient: {
    file: 'src/actors/client/stepClientMachine.ts',
    tests: ['src/actors/client/stepClientMachine.test.ts', 'src/actors/client/stepClient.test.ts'],
    equivalent: {},
  },
  lockClient: {
    file: 'src/actors/client/lockClientMachine.ts',
    tests: [
      'src/actors/client/lockClientMachine.test.ts',
      'src/actors/client/maxHold.test.ts',
      'src/actors/recipes/recipes.test.ts',
      'src/actors/recipes/redlock.test.ts',
    ],
    equivalent: {},
  },
  sentinel: {
    file: 'src/actors/sentinel/sentinelMachine.ts',
    tests: ['src/actors/sentinel/sentinelMachine.test.ts', 'src/actors/sentinel/sentinel.test.ts'],
    equivalent: {},
  },
};

const PASS_MARK = 0.9;
/**
 * A mutant whose tests take this many times as long as the unmutated machine's second run (the
 * first also transforms every module; at least a minute) counts as killed, as Stryker counts
 * it: a mutant can make a run loop for ever.
 */
const TIMEOUT_FACTOR = 3;
const TIMEOUT_MS_MIN = 60_000;

type Outcome = 'killed' | 'survived' | 'timeout';

/** The file being mutated and its original text, so any way out of the process puts it back. */
let mutating: { path: string; original: string } | undefined;

function restore(): void {
  if (mutating && readFileSync(mutating.path, 'utf8') !== mutating.original) {
    writeFileSync(mutating.path, mutating.original);
  }
}

/** Kills Vitest's test processes (a looping one ignores Vitest's request to stop). */
function killWorkers(): void {
  const children = execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(process.pid)], { encoding: 'utf8' });
  for (const line of children.split('\n')) {
    const [pid, ...args] = line.trim().split(/\s+/);
    if (pid && args.join(' ').includes('vitest/dist/workers')) process.kill(Number(pid), 'SIGKILL');
  }
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    restore();
    killWorkers();
    process.exit(130);
  });
}

/**
 * Replaces a Vitest whose test process loops in a mutant's endless run. Closing it waits for
 * that process for ever, so it is killed first; its pending calls then reject, and Vitest's own
 * handler for an unhandled rejection would end this process, so they are ignored meanwhile.
 */
async function restart(vitest: { current: Vitest }): Promise<void> {
  const ignore = () => undefined;
  process.removeAllListeners('unhandledRejection');
  process.on('unhandledRejection', ignore);
  killWorkers();
  await vitest.current.close();
  process.off('unhandledRejection', ignore);
  vitest.current = await openVitest();
}

async function openVitest(): Promise<Vitest> {
  // A reporter that says nothing: the tests' own output would bury the survivors.
  const vitest = await createVitest('test', { watch: false, bail: 1, reporters: [{}], silent: true });
  await vitest.standalone();
  return vitest;
}

/** Runs `tests` once: whether every one passed, or 'timeout'. */
async function runTests(vitest: Vitest, tests: string[], timeoutMs: number): Promise<boolean | 'timeout'> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((done) => {
    timer = setTimeout(() => done('timeout'), timeoutMs);
  });
  try {
    // A run that throws (after a timeout, its workers were killed) has not passed.
    const run = vitest.runTestFiles(tests.map((t) => resolve(t))).then(
      (result) => result.unhandledErrors.length === 0 && result.testModules.every((m) => m.ok()),
      () => false,
    );
    return await Promise.race([run, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

interface Score {
  killed: number;
  survived: Mutant[];
  timeouts: number;
  equivalent: number;
  seconds: number;
}

async function scoreMachine(name: string, machine: Machine, vitest: { current: Vitest }): Promise<Score> {
  const path = resolve(machine.file);
  const original = readFileSync(path, 'utf8');
  const started = performance.now();
  let warmMs = 0;
  for (let run = 0; run < 2; run++) {
    const runStarted = performance.now();
    if ((await runTests(vitest.current, machine.tests, 10 * TIMEOUT_MS_MIN)) !== true) {
      throw new Error(`${name}: the tests fail (or hang) on the unmutated machine; fix them first`);
    }
    warmMs = performance.now() - runStarted;
  }
  const timeoutMs = Math.max(TIMEOUT_MS_MIN, TIMEOUT_FACTOR * warmMs);
  process.stderr.write(
    `  the tests take ${Math.round(warmMs / 1000)} s; a mutant times out after ${Math.round(timeoutMs / 1000)} s\n`,
  );
  const mutants = machineMutants(machine.file, original);
  const score: Score = { killed: 0, survived: [], timeouts: 0, equivalent: 0, seconds: 0 };
  const known = new Set(mutants.map((m) => m.description));
  for (const listed of Object.keys(machine.equivalent)) {
    if (!known.has(listed)) throw new Error(`${name}: no mutant is "${listed}" (listed as equivalent)`);
  }
  for (const [i, mutant] of mutants.entries()) {
    if (mutant.description in machine.equivalent) {
      score.equivalent++;
      continue;
    }
    mutating = { path, original };
    let outcome: Outcome;
    try {
      writeFileSync(path, mutant.source);
      vitest.current.invalidateFile(path);
      const passed = await runTests(vitest.current, machine.tests, timeoutMs);
      outcome = passed === 'timeout' ? 'timeout' : passed ? 'survived' : 'killed';
    } finally {
      restore();
      vitest.current.invalidateFile(path);
      mutating = undefined;
    }
    if (outcome === 'timeout') {
      // The hung run's workers cannot be trusted with the next mutant: start afresh.
      score.timeouts++;
      await restart(vitest);
      vitest.current = await openVitest();
    } else if (outcome === 'killed') score.killed++;
    else score.survived.push(mutant);
    const mark = outcome === 'survived' ? 'SURVIVED' : outcome;
    process.stderr.write(`  [${i + 1}/${mutants.length}] ${mark}: ${mutant.description}\n`);
  }
  score.seconds = Math.round((performance.now() - started) / 1000);
  return score;
}

const percent = (killed: number, total: number) => (total === 0 ? 100 : (100 * killed) / total);

async function main(): Promise<void> {
  const asked = process.argv.slice(2);
  for (const a of asked)
    if (!(a in MACHINES)) throw new Error(`no machine "${a}"; known: ${Object.keys(MACHINES).join(', ')}`);
  const names = asked.length > 0 ? asked : Object.keys(MACHINES);
  const vitest = { current: await openVitest() };
  const lines: string[] = [];
  let anyBelow = false;
  let killedAll = 0;
  let totalAll = 0;
  try {
    for (const [i, name] of names.entries()) {
      const machine = MACHINES[name]!;
      process.stderr.write(`${name}: ${machine.file}\n`);
      // Each machine gets a Vitest of its own: one that has just run a machine's last mutant
      // failed the next machine's unmutated tests at once (its baseline), whichever came second.
      if (i > 0) {
        await vitest.current.close();
        vitest.current = await openVitest();
      }
      const s = await scoreMachine(name, machine, vitest);
      for (const m of s.survived) console.log(`survived ${machine.file}:${m.line} ${m.description}`);
      const killed = s.killed + s.timeouts;
      const total = killed + s.survived.length;
      anyBelow ||= percent(killed, total) < PASS_MARK * 100;
      killedAll += killed;
      totalAll += total;
      lines.push(
        `${name}: ${killed}/${total} killed (${percent(killed, total).toFixed(1)} %; ${s.timeouts} by timeout), ` +
          `${s.equivalent} equivalent, ${s.seconds} s`,
      );
    }
  } finally {
    restore();
    await vitest.current.close();
  }
  for (const line of lines) console.log(line);
  const overall = percent(killedAll, totalAll);
  console.log(`overall: ${killedAll}/${totalAll} killed (${overall.toFixed(1)} %)`);
  // Set either way: Vitest sets 1 itself whenever a run fails, as every killed mutant's does.
  process.exitCode = anyBelow || overall < PASS_MARK * 100 ? 1 : 0;
}

let finished = false;
// Vitest can end this process itself (its handler for an unhandled rejection does, after a
// killed test process): say so, rather than leave a log that simply stops.
process.on('exit', () => {
  restore();
  if (!finished) process.stderr.write('mutants: the run ended early; the figures above are partial\n');
});
await main();
finished = true;
