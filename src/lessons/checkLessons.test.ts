import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Verdict } from '../check/verdict';
import { runScenario } from '../scenario/running/run';
import { checkLessons } from './checkLessons';
import type { ScenarioRunner } from './scenarioExpectations';

const verdict = (holds: boolean): Verdict => ({
  invariant: 'single-writer',
  holds,
  atMs: holds ? null : 17_000,
  eventIds: [],
  explanation: '',
  violations: holds ? 0 : 1,
});
const violates: ScenarioRunner = async () => ({ verdicts: [verdict(false)] });
const holds: ScenarioRunner = async () => ({ verdicts: [verdict(true)] });

describe('checkLessons (npm run lessons:check)', () => {
  it('passes a valid folder and says what it checked', async () => {
    const report = await checkLessons(['src/lessons/fixtures/valid'], violates);
    expect(report).toEqual({ lines: ['lessons:check: 2 lessons, 2 scenario runs, no problems'], exitCode: 0 });
  });

  it('fails when a scenario does not do what its expect says, pointing at the block', async () => {
    const report = await checkLessons(['src/lessons/fixtures/valid'], holds);
    expect(report.exitCode).toBe(1);
    expect(report.lines).toEqual([
      "src/lessons/fixtures/valid/01-first.md:15:1: scenario 'paused': expected single-writer to be violated, but it held (seed 7; replay with npm run sim -- src/lessons/fixtures/valid/01-first.md#paused --seed 7)",
      "src/lessons/fixtures/valid/01-first.md:49:1: scenario 'two-baristas' (scenarios/two-baristas.yaml): expected single-writer to be violated, but it held (seed 7; replay with npm run sim -- src/lessons/fixtures/valid/01-first.md#two-baristas --seed 7)",
      'lessons:check: 2 lessons, 2 scenario runs, 2 problems',
    ]);
  });

  it('reports a crashing run instead of stopping', async () => {
    const report = await checkLessons(
      ['src/lessons/fixtures/valid/02-second.md', 'src/lessons/fixtures/valid/01-first.md'],
      async () => {
        throw new Error('boom');
      },
    );
    expect(report.lines[0]).toMatch(
      /^src\/lessons\/fixtures\/valid\/01-first\.md:15:1: scenario 'paused' crashed the simulator: boom/,
    );
    expect(report.exitCode).toBe(1);
  });

  it('keeps checking every named file and reports only their problems', async () => {
    const report = await checkLessons(
      ['src/lessons/fixtures/broken/quiz-no-correct.md', 'src/lessons/fixtures/broken/wrong-type.md'],
      violates,
    );
    expect(report).toEqual({
      lines: [
        "src/lessons/fixtures/broken/quiz-no-correct.md:17:3: no option is marked correct (add 'correct: true' to the right option)",
        'src/lessons/fixtures/broken/wrong-type.md:5:8: order should be a number (it is text here: "first")',
        'lessons:check: 2 lessons, 0 scenario runs, 2 problems',
      ],
      exitCode: 1,
    });
  });

  it("reports a YAML alias bomb at its place like any YAML error, and keeps the file's other problems", async () => {
    const report = await checkLessons(['src/lessons/fixtures/broken/alias-bomb.md'], violates);
    expect(report.lines).toEqual([
      'src/lessons/fixtures/broken/alias-bomb.md:17:8: the aliases here (*name) expand to too many values (more than 100 copies) (write the values out, or use fewer aliases: an alias of an alias multiplies)',
      "src/lessons/fixtures/broken/alias-bomb.md:31:3: no option is marked correct (add 'correct: true' to the right option)",
      'lessons:check: 1 lesson, 0 scenario runs, 2 problems',
    ]);
  });

  it('fails a lesson that names no sources, at the top of its frontmatter', async () => {
    const report = await checkLessons(['src/lessons/fixtures/broken/no-sources.md'], violates);
    expect(report).toEqual({
      lines: [
        'src/lessons/fixtures/broken/no-sources.md:2:1: the lesson names no sources (add sources: [{ title, url, by }] to the frontmatter: the Redis docs page, the library or article its facts come from)',
        'lessons:check: 1 lesson, 0 scenario runs, 1 problem',
      ],
      exitCode: 1,
    });
  });

  it("compiles a scenario's Lua scripts and reports a typo at its line in the lesson file, without running it", async () => {
    let ran = 0;
    const report = await checkLessons(['src/lessons/fixtures/broken/lua-typo.md'], async (...args) => {
      ran++;
      return violates(...args);
    });
    expect(report).toEqual({
      lines: [
        "src/lessons/fixtures/broken/lua-typo.md:26:13: Lua syntax error (script line 3): 'end' expected (to close 'if' at line 1) near 'els' (did you mean 'else'?)",
        'lessons:check: 1 lesson, 0 scenario runs, 1 problem',
      ],
      exitCode: 1,
    });
    expect(ran).toBe(0);
  });

  it('says clearly that there is nothing to check in an empty folder, and succeeds', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'lessons-'));
    const report = await checkLessons([empty], violates);
    expect(report.exitCode).toBe(0);
    expect(report.lines).toEqual([
      `lessons:check: no lessons found in ${empty} (lesson files are named NN-slug.md); nothing to check`,
    ]);
  });

  it('reports a path that does not exist', async () => {
    const report = await checkLessons(['lessons/99-nope.md'], violates);
    expect(report.lines[0]).toBe('lessons/99-nope.md:1:1: no such file or folder');
    expect(report.exitCode).toBe(1);
  });

  it('runs the fixture scenarios for real in the simulator', async () => {
    const report = await checkLessons(['src/lessons/fixtures/valid'], runScenario);
    expect(report.lines).toEqual(['lessons:check: 2 lessons, 2 scenario runs, no problems']);
  }, 30_000);
});
