import { describe, expect, it } from 'vitest';
import { createActor, SimulatedClock } from 'xstate';
import { shortestPaths, transitionsTaken } from '../../testing/machinePaths';
import {
  bindSentinelEffects,
  sentinelMachine,
  type SentinelEffects,
  type SentinelEvent,
  type SentinelState,
} from './sentinelMachine';

const input = { quorum: 2, votesNeeded: 2, electionTimeoutMs: 10_000, failoverTimeoutMs: 10_000 };

/** Every event, with a payload for each way a guard can decide. */
const events: SentinelEvent[] = [
  { type: 'INFO' },
  { type: 'SDOWN' },
  { type: 'UP' },
  { type: 'ASK' },
  { type: 'OPINIONS', votes: 1, mayRun: true },
  { type: 'OPINIONS', votes: 2, mayRun: true },
  { type: 'OPINIONS', votes: 2, mayRun: false },
  { type: 'RUN' },
  { type: 'VOTES', votes: 1 },
  { type: 'VOTES', votes: 2 },
  { type: 'MANUAL' },
  { type: 'PROMOTED' },
  { type: 'NO_REPLICA' },
  { type: 'SWITCHED' },
];

/**
 * The sentinel's specification, one line per transition: what a learner should see a sentinel
 * do. '-' keeps the state (the transition only acts); '*' is any state.
 */
const SPEC = [
  // Opinions keep the objectively-down belief current anywhere; questions go out from anywhere.
  '* --ASK--> -',
  '* --OPINIONS--> -',
  'monitoring --INFO--> -',
  'monitoring --SDOWN--> subjectively-down',
  'monitoring --MANUAL--> failing-over',
  'subjectively-down --UP--> monitoring',
  'subjectively-down --OPINIONS--> objectively-down',
  'subjectively-down --OPINIONS--> -',
  'subjectively-down --MANUAL--> failing-over',
  'subjectively-down --SWITCHED--> monitoring',
  'objectively-down --UP--> monitoring',
  // The quorum is lost: only its own PINGs say the primary is down.
  'objectively-down --OPINIONS--> subjectively-down',
  'objectively-down --OPINIONS--> -',
  'objectively-down --RUN--> electing',
  'objectively-down --MANUAL--> failing-over',
  'objectively-down --SWITCHED--> monitoring',
  'electing --ASK--> -',
  'electing --VOTES--> failing-over',
  'electing --after electionTimeout--> objectively-down',
  // The primary came back while the sentinel was asking for votes: there is nothing to fail over.
  'electing --UP--> monitoring',
  'electing --MANUAL--> failing-over',
  'electing --SWITCHED--> monitoring',
  'failing-over --PROMOTED--> monitoring',
  'failing-over --NO_REPLICA--> monitoring',
  'failing-over --after failoverTimeout--> monitoring',
];

describe('the sentinel machine, walked with @xstate/graph', () => {
  it('takes exactly the transitions of its specification, every one of them', () => {
    expect(transitionsTaken(sentinelMachine, [input], events)).toEqual([...SPEC].sort());
  });

  it('reaches every state a lane can show from monitoring', () => {
    const states: SentinelState[] = ['monitoring', 'subjectively-down', 'objectively-down', 'electing', 'failing-over'];
    const paths = shortestPaths(sentinelMachine, [input], events);
    expect([...paths.keys()].sort()).toEqual(states.map((s) => JSON.stringify(s)).sort());
    expect(paths.get('"electing"')!.slice(-3)).toEqual(['SDOWN', 'OPINIONS', 'RUN']);
  });
});

const EFFECTS: (keyof SentinelEffects)[] = [
  'show',
  'reconfigureStrays',
  'ask',
  'noteOpinions',
  'scheduleRun',
  'startElection',
  'noteElected',
  'startManual',
  'startFailover',
  'completeFailover',
  'noteFailoverTimedOut',
];

/**
 * Runs a sentinel through `steps` (an event, or a number of ms for its clock to move) and
 * returns, per step, the effects its machine asked for, with their arguments.
 */
function effectsOf(steps: (SentinelEvent | number)[]): string[] {
  const clock = new SimulatedClock();
  const actor = createActor(sentinelMachine, { input, clock });
  const asked: string[] = [];
  const record =
    (name: string) =>
    (...args: unknown[]) =>
      asked.push(args.length ? `${name}(${args.join(', ')})` : name);
  bindSentinelEffects(actor, Object.fromEntries(EFFECTS.map((e) => [e, record(e)])) as unknown as SentinelEffects);
  actor.start();
  const out = [`start: ${asked.splice(0).join(' ')}`];
  for (const step of steps) {
    if (typeof step === 'number') clock.increment(step);
    else actor.send(step);
    out.push(`${typeof step === 'number' ? `${step} ms` : step.type}: ${asked.splice(0).join(' ')}`);
  }
  actor.stop();
  return out;
}

const opinions = (votes: number, mayRun = true): SentinelEvent => ({ type: 'OPINIONS', votes, mayRun });

describe('the sentinel machine asks for the effects of each step', () => {
  it('shows each state, asks, notes opinions, runs, wins and fails over', () => {
    expect(
      effectsOf([
        { type: 'INFO' },
        { type: 'SDOWN' },
        { type: 'ASK' },
        opinions(1),
        opinions(2),
        opinions(2, false),
        { type: 'RUN' },
        { type: 'ASK' },
        { type: 'VOTES', votes: 1 },
        { type: 'VOTES', votes: 2 },
        { type: 'PROMOTED' },
      ]),
    ).toEqual([
      'start: show(monitoring)',
      'INFO: reconfigureStrays',
      'SDOWN: show(subjectively-down)',
      'ASK: ask(false)',
      'OPINIONS: noteOpinions(false, 1)',
      'OPINIONS: noteOpinions(true, 2) scheduleRun show(objectively-down)',
      'OPINIONS: noteOpinions(true, 2)',
      'RUN: startElection show(electing) ask(true)',
      'ASK: ask(true)',
      'VOTES: ',
      'VOTES: noteElected(2, 2) show(failing-over) startFailover(false)',
      'PROMOTED: completeFailover show(monitoring)',
    ]);
  });

  it('keeps its belief current anywhere, schedules a run only when it may, and loses the quorum', () => {
    expect(
      effectsOf([opinions(2), { type: 'SDOWN' }, opinions(2, false), opinions(2), opinions(1), { type: 'UP' }]),
    ).toEqual([
      'start: show(monitoring)',
      'OPINIONS: noteOpinions(true, 2)',
      'SDOWN: show(subjectively-down)',
      'OPINIONS: noteOpinions(true, 2) show(objectively-down)',
      'OPINIONS: noteOpinions(true, 2) scheduleRun',
      'OPINIONS: noteOpinions(false, 1) show(subjectively-down)',
      'UP: show(monitoring)',
    ]);
  });

  it('fails over by hand from any state but failing-over, and times elections and failovers out', () => {
    const down = [{ type: 'SDOWN' }, opinions(2)] as SentinelEvent[];
    expect(effectsOf([{ type: 'MANUAL' }, { type: 'NO_REPLICA' }])).toEqual([
      'start: show(monitoring)',
      'MANUAL: startManual show(failing-over) startFailover(true)',
      'NO_REPLICA: show(monitoring)',
    ]);
    expect(effectsOf([{ type: 'SDOWN' }, { type: 'MANUAL' }])[2]).toBe(
      'MANUAL: startManual show(failing-over) startFailover(true)',
    );
    expect(effectsOf([...down, { type: 'MANUAL' }])[3]).toBe(
      'MANUAL: startManual show(failing-over) startFailover(true)',
    );
    expect(effectsOf([...down, { type: 'RUN' }, { type: 'MANUAL' }])[4]).toBe(
      'MANUAL: startManual show(failing-over) startFailover(true)',
    );
    expect(
      effectsOf([...down, { type: 'RUN' }, 10_000, { type: 'RUN' }, { type: 'VOTES', votes: 2 }, 10_000]).slice(4),
    ).toEqual([
      '10000 ms: show(objectively-down)',
      'RUN: startElection show(electing) ask(true)',
      'VOTES: noteElected(2, 2) show(failing-over) startFailover(false)',
      '10000 ms: noteFailoverTimedOut show(monitoring)',
    ]);
  });

  it('goes back to monitoring when another sentinel switched the primary, or it answers again', () => {
    const down = [{ type: 'SDOWN' }, opinions(2)] as SentinelEvent[];
    for (const last of [{ type: 'SWITCHED' }, { type: 'UP' }] as SentinelEvent[]) {
      expect(effectsOf([{ type: 'SDOWN' }, last])[2]).toBe(`${last.type}: show(monitoring)`);
      expect(effectsOf([...down, last])[3]).toBe(`${last.type}: show(monitoring)`);
      expect(effectsOf([...down, { type: 'RUN' }, last])[4]).toBe(`${last.type}: show(monitoring)`);
    }
  });
});
