import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ScriptEngine } from '../../redis/scriptEngine';
import { formatDiagnostic } from '../diagnostic';
import { unmetExpectations } from './expectations';
import { INVARIANTS } from '../../check/invariants';
import { parseScenario } from '../text/parse';
import { loadScriptEngine } from './run';
import { Simulation } from './simulation';
import { summarizeTrace } from './traceSummary';

/**
 * Every reference scenario in lessons/scenarios/ meets its `expect`, and its trace summary
 * matches the golden file beside it. After an intended change, regenerate with
 * `UPDATE_GOLDEN=1 npx vitest run src/scenario/running/golden.test.ts` and read the diff.
 */
const DIR = 'lessons/scenarios';
const GOLDEN = join(DIR, 'golden');
const files = existsSync(DIR)
  ? readdirSync(DIR)
      .filter((f) => f.endsWith('.yaml'))
      .sort()
  : [];

let scripts: ScriptEngine;
beforeAll(async () => {
  scripts = await loadScriptEngine();
});

describe('reference scenarios', () => {
  it('exist', () => expect(files.length).toBeGreaterThanOrEqual(10));

  for (const file of files) {
    it(`${file} meets its expectations and matches its golden summary`, () => {
      const parsed = parseScenario(readFileSync(join(DIR, file), 'utf8'), { file: join(DIR, file), line: 1 });
      if (!parsed.ok) throw new Error(parsed.diagnostics.map(formatDiagnostic).join('\n'));
      const simulation = new Simulation(parsed.scenario, {}, scripts).run();
      const verdicts = simulation.verdicts();
      expect(parsed.scenario.expect.length).toBeGreaterThan(0);
      expect(unmetExpectations(parsed.scenario, verdicts), `SEED=${simulation.seed}`).toEqual([]);
      // The checkers read only CHECKED_KINDS; over the whole trace they must say exactly the same.
      expect(simulation.verdicts(simulation.sim.trace.toArray())).toEqual(verdicts);
      // The explorer judges the invariant it hunts alone: it must say exactly what verdicts() says of it.
      for (const name of INVARIANTS)
        expect(simulation.verdictOn(name), name).toEqual(verdicts.find((v) => v.invariant === name) ?? null);
      const summary = summarizeTrace(simulation.sim.trace.toArray(), verdicts, simulation.sim.trace.hash());
      const golden = join(GOLDEN, file.replace(/\.yaml$/, '.txt'));
      if (process.env.UPDATE_GOLDEN) {
        mkdirSync(GOLDEN, { recursive: true });
        writeFileSync(golden, summary);
      }
      expect(existsSync(golden), `${golden} is missing: run with UPDATE_GOLDEN=1 to create it`).toBe(true);
      expect(summary).toBe(readFileSync(golden, 'utf8'));
    });
  }
});
