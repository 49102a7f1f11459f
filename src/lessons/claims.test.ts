import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { replyAgrees } from '../check/commandReplies';
import { runScenarioTrace } from '../scenario/running/run';
import { parseQuery } from './blocks/claims';
import { checkLessons } from './checkLessons';
import { agrees, readStated } from './statedNumber';

const FIXTURES = 'src/lessons/fixtures/claims';

/** A fixture lesson changed by `edit`, in a folder of its own beside the fixtures' courses.yaml; its path as lessons:check names it. */
function editedFixture(name: string, edit: (text: string) => string): string {
  const dir = mkdtempSync(join(tmpdir(), 'claims-'));
  copyFileSync(`${FIXTURES}/courses.yaml`, join(dir, 'courses.yaml'));
  writeFileSync(join(dir, name), edit(readFileSync(`${FIXTURES}/${name}`, 'utf8')));
  return relative(process.cwd(), join(dir, name));
}

describe('claims: the numbers a lesson states, checked against its run', () => {
  it('passes prose whose every claimed number is what the run shows', async () => {
    const report = await checkLessons([`${FIXTURES}/01-claims.md`], runScenarioTrace);
    expect(report).toEqual({ lines: ['lessons:check: 1 lesson, 2 scenario runs, no problems'], exitCode: 0 });
  });

  it('fails at the line of the prose when the run changes and the prose does not', async () => {
    // The same lesson with A frozen for 10 s instead of 15 s: it runs again at 12 s, not 17 s.
    const file = editedFixture('01-claims.md', (text) => text.replace('for: 15s', 'for: 10s'));
    const report = await checkLessons([file], runScenarioTrace);
    expect(report.exitCode).toBe(1);
    expect(report.lines).toContain(
      `${file}:24:22: the prose says "runs again at 17 s" for the time of resumed by A, but the run shows 12 s (scenario 'paused', seed 7) (change the prose and the claim at line 30, or the scenario)`,
    );
  });

  it('says what is wrong with each claim that does not hold, where to change it', async () => {
    const report = await checkLessons([`${FIXTURES}/02-stale.md`], runScenarioTrace);
    expect(report.lines).toEqual([
      `${FIXTURES}/02-stale.md:24:64: the prose says "the lock at 4.5 s" for the time of acquired by B, but the run shows 11.004 s (scenario 'two-baristas', seed 7) (change the prose and the claim at line 29, or the scenario)`,
      `${FIXTURES}/02-stale.md:25:26: the prose says "which was 3 s" for the time from requested by A to acquired by A, but the run shows 0.006 s (scenario 'two-baristas', seed 7) (change the prose and the claim at line 30, or the scenario)`,
      `${FIXTURES}/02-stale.md:31:5: no actor 'Bb' in this run (did you mean 'B'?)`,
      `${FIXTURES}/02-stale.md:32:5: "took 9 s" is not in the lesson's prose (a claim quotes the prose word for word (spaces and line breaks may differ); change one to match the other)`,
      `${FIXTURES}/02-stale.md:33:5: "3 s" has a unit, but the number of acquired is a number (quote the number with its unit, as the prose writes it)`,
      'lessons:check: 1 lesson, 2 scenario runs, 5 problems',
    ]);
  });

  it("binds a Redlock client's validity, a replay, a verdict's time and a run with the learner's actions", async () => {
    const report = await checkLessons([`${FIXTURES}/03-redlock.md`], runScenarioTrace);
    expect(report).toEqual({ lines: ['lessons:check: 1 lesson, 3 scenario runs, no problems'], exitCode: 0 });
  });

  it("fails at a model answer's words when the learner's run no longer shows them, and at the prose when the validity or the replay changes", async () => {
    const file = editedFixture('03-redlock.md', (text) =>
      text
        // A shorter pause: A writes at 9 s, before B arrives, and single writer holds.
        .replace('for: 9s }', 'for: 5s }')
        // r5 without persistence comes back empty.
        .replace(', persistence: aof-always', '')
        // A's writes go out 2 s later: the same validity, but a longer TTL gives more of it.
        .replace('ttl: 10s, work: 4s', 'ttl: 12s, work: 4s'),
    );
    const report = await checkLessons([file], runScenarioTrace);
    expect(report.exitCode).toBe(1);
    expect(report.lines).toEqual([
      `${file}:27:18: the prose says "for 9.892 s of validity" for the validity of acquired by A, but the run shows 11.872 s (scenario 'careless', seed 4) (change the prose and the claim at line 32, or the scenario)`,
      `${file}:27:49: the prose says "runs out at 9.9 s" for the end of the validity of acquired by A, but the run shows 11.878 s (scenario 'careless', seed 4) (change the prose and the claim at line 33, or the scenario)`,
      `${file}:28:1: the prose says "replays 1 command" for the commands replayed at recovered by r5, but the run shows 0 (scenario 'careless', seed 4) (change the prose and the claim at line 34, or the scenario)`,
      `${file}:41:59: the prose says "Single writer breaks at 13 s" for the time single-writer broke, but single-writer never broke (scenario 'careless') (change the prose and the claim at line 48, or the scenario)`,
      'lessons:check: 1 lesson, 3 scenario runs, 4 problems',
    ]);
  });

  it('says which action names nobody in the run, and finds no claim inside a scenario block', async () => {
    const file = editedFixture('03-redlock.md', (text) =>
      text
        .replace('target: A, for: 9s', 'target: C, for: 9s')
        .replace(
          '  - { says: "replays 1 command", replayed: recovered by r5 }',
          '  - { says: "startAt: 11s", at: acquired by B }',
        ),
    );
    const report = await checkLessons([file], runScenarioTrace);
    expect(report.lines).toEqual([
      `${file}:34:5: "startAt: 11s" is not in the lesson's prose (a claim quotes the prose word for word (spaces and line breaks may differ); change one to match the other)`,
      `${file}:45:1: actions[0]: 'C' is not an actor of scenario 'careless' (it has r1, r2, r3, r4, r5, A, B, espresso)`,
      'lessons:check: 1 lesson, 2 scenario runs, 2 problems',
    ]);
  });

  it("passes prose that quotes Redis's replies as the run gives them", async () => {
    const report = await checkLessons([`${FIXTURES}/04-replies.md`], runScenarioTrace);
    expect(report).toEqual({ lines: ['lessons:check: 1 lesson, 2 scenario runs, no problems'], exitCode: 0 });
  });

  it('fails at the quoted reply when the run answers otherwise, and names a command the run never ran', async () => {
    // A pause shorter than the lease: A wakes while the key is still its own, so its release
    // answers 1 where the prose says 0. The claim on B names a key the run never locks.
    const file = editedFixture('04-replies.md', (text) =>
      text
        .replace('for: 15s', 'for: 3s')
        .replace(
          'expect: { invariant: single-writer, outcome: violated }',
          'expect: { invariant: all, outcome: holds }',
        )
        .replace('reply: SET lock by B', 'reply: SET lock:espresso by B'),
    );
    const report = await checkLessons([file], runScenarioTrace);
    expect(report.exitCode).toBe(1);
    expect(report.lines).toEqual([
      `${file}:24:33: the prose quotes \`(nil)\` as Redis's reply to SET lock:espresso by B, but the run has no SET lock:espresso by B (it ran 0 such commands) (scenario 'paused') (change the prose and the claim at line 30, or the scenario)`,
      `${file}:25:30: the prose quotes \`0\` as Redis's reply to EVAL by A, but the run shows \`(integer) 1\` (scenario 'paused', seed 7) (change the prose and the claim at line 32, or the scenario)`,
      'lessons:check: 1 lesson, 2 scenario runs, 2 problems',
    ]);
  });

  it('reads a reply as prose quotes it: the whole line, the value alone, or an error by its code', () => {
    expect(replyAgrees('(nil)', '(nil)')).toBe(true);
    expect(replyAgrees('0', '(integer) 0')).toBe(true);
    expect(replyAgrees('-2', '(integer) -2')).toBe(true);
    expect(replyAgrees('(integer) 1', '(integer) 1')).toBe(true);
    expect(replyAgrees('1', '(integer) 0')).toBe(false);
    expect(replyAgrees('OK', '(nil)')).toBe(false);
    expect(replyAgrees('NOREPLICAS', '(error) NOREPLICAS Not enough good replicas to write.')).toBe(true);
    expect(
      replyAgrees(
        'NOREPLICAS Not enough good replicas to write.',
        '(error) NOREPLICAS Not enough good replicas to write.',
      ),
    ).toBe(true);
    expect(replyAgrees('NOREP', '(error) NOREPLICAS Not enough good replicas to write.')).toBe(false);
    expect(replyAgrees('a7f3', '"a7f3"')).toBe(true);
    expect(replyAgrees('"a7f3"', '"a7f3"')).toBe(true);
  });

  it('reads a happening as the prose would name it, and names an unknown event', () => {
    expect(parseQuery('2nd write by A')).toEqual({ ok: true, query: { event: 'write', by: 'A', nth: 2 } });
    expect(parseQuery('last renewed by W4')).toEqual({ ok: true, query: { event: 'renewed', by: 'W4', nth: 'last' } });
    expect(parseQuery('acquired')).toEqual({ ok: true, query: { event: 'acquired', by: null, nth: 1 } });
    expect(parseQuery('aquired by B')).toMatchObject({
      ok: false,
      message: "unknown event 'aquired'",
      hint: "did you mean 'acquired'?",
    });
  });
});

describe('a number as the prose states it', () => {
  it('keeps the precision it is written with', () => {
    const stated = readStated('at 11.65 s')!;
    expect(stated).toMatchObject({ value: 11.65, unit: 's', hedge: 'exact' });
    expect(agrees(11_654, stated)).toBe(true);
    expect(agrees(11_656, stated)).toBe(false);
    expect(agrees(6_400, readStated('6 s')!)).toBe(true);
    expect(agrees(6_600, readStated('6 s')!)).toBe(false);
  });

  it('reads "about", "over" and "under" as the words mean them', () => {
    expect(agrees(117, readStated('About 120 attempts')!)).toBe(true);
    expect(agrees(146, readStated('About 120 attempts')!)).toBe(false);
    // "about" with two decimals stays close: ten steps of the last digit.
    expect(agrees(6_390, readStated('about 6.35 s')!)).toBe(true);
    expect(agrees(6_500, readStated('about 6.35 s')!)).toBe(false);
    expect(agrees(27_597, readStated('the p95 is over 20 seconds')!)).toBe(true);
    expect(agrees(19_000, readStated('over 20 seconds')!)).toBe(false);
    expect(agrees(300, readStated('within 0.5 s')!)).toBe(true);
    expect(agrees(16.2, readStated('a success rate near 16%')!)).toBe(true);
  });

  it('reads thousands separators and milliseconds, and finds no number in words alone', () => {
    expect(readStated('1,500 ms')).toMatchObject({ value: 1500, unit: 'ms' });
    expect(readStated('A gets 2, B gets 3')).toMatchObject({ value: 2, unit: null });
    expect(readStated('five seconds')).toBeNull();
    // A reply in inline code is not the claim: the time after it is.
    expect(readStated('answers `0` at 3.703 s')).toMatchObject({ value: 3.703, unit: 's' });
  });
});
