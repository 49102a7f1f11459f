import { beforeAll, describe, expect, it } from 'vitest';
import type { ScriptEngine } from '../../redis/scriptEngine';
import { parseScenario } from '../../scenario/text/parse';
import { loadScriptEngine } from '../../scenario/running/run';
import type { Scenario } from '../../scenario/schema/schema';
import { actorCommands, faultScope, partitionAction } from './actorActions';
import { consoleTranscript } from './consoleModel';
import { RunInspector } from './inspect';
import { createPlayerStore } from './playerStore';
import { createSimulationApi } from '../worker/simulationApi';
import { inProcessQueue, playerSimulator } from '../worker/playerSimulator';
import { computeRun } from '../worker/computeRun';
import { decodeRun, encodeRun, MAX_LINK_CHARS, shareUrl } from './shareLink';
import { simTime } from '../../sim/time';

const YAML = `
id: barista
title: The paused barista
seed: 7
clients:
  - { id: A, label: Barista A, recipe: lease-with-token, ttl: 10s, work: 6s }
  - { id: B, label: Barista B, recipe: lease-with-token, ttl: 10s, startAt: 11s }
resource: { id: espresso, kind: store, fencing: false }
script:
  - { at: 2s, do: pause, target: A, for: 15s }
controls: [pause, resume, crash, restart, partition, heal, clock-jump, toggle-fencing]
`;

let scripts: ScriptEngine;
let scenario: Scenario;

beforeAll(async () => {
  scripts = await loadScriptEngine();
  const parsed = parseScenario(YAML, { file: 't.yaml', line: 1 });
  if (!parsed.ok) throw new Error('bad test scenario');
  scenario = parsed.scenario;
});

/** A player store on the simulator in this thread, with its first run in. */
async function newStore() {
  const store = createPlayerStore(scenario, playerSimulator(inProcessQueue(createSimulationApi(scripts)), scenario));
  await store.getState().settled();
  return store;
}

describe('the player store', () => {
  it('stops by itself at the first violation when auto-pause is on, and sweeps past it when off', async () => {
    const store = await newStore();
    const violationMs = Math.min(
      ...store
        .getState()
        .verdicts.filter((v) => !v.holds)
        .map((v) => v.atMs!),
    );
    store.getState().play();
    for (let i = 0; i < 2000 && store.getState().playing; i++) store.getState().tick(50);
    expect(store.getState().playheadMs).toBe(violationMs);
    expect(store.getState().stoppedAtViolation).toBe(true);

    store.getState().reset();
    store.getState().setAutoPause(false);
    store.getState().play();
    for (let i = 0; i < 2000 && store.getState().playing; i++) store.getState().tick(50);
    expect(store.getState().playheadMs).toBeGreaterThan(violationMs);
  });

  it('keeps the moment the learner moved to while a new run computed (fencing on, then straight to the end)', async () => {
    const store = await newStore();
    store.getState().setFencing(true);
    store.getState().seekTime(999_000);
    const movedTo = store.getState().playheadMs;
    expect(movedTo).toBeGreaterThan(0);
    await store.getState().settled();
    expect(store.getState().config.fencing).toBe(true);
    expect(store.getState().playheadMs).toBe(Math.min(movedTo, store.getState().events.at(-1)!.at));

    // Left alone while it computes, a fencing switch starts the run over from 0.
    store.getState().setFencing(false);
    await store.getState().settled();
    expect(store.getState().playheadMs).toBe(0);
  });

  it('keeps a move to the end made while a new run computes, though the playhead was at the end already', async () => {
    const store = await newStore();
    store.getState().seekTime(999_000);
    const oldEndMs = store.getState().playheadMs;
    expect(oldEndMs).toBe(store.getState().events.at(-1)!.at);
    // Fencing switched at the end, then "go to the end" again before the new run is in: the
    // playhead does not move over the old run, but the learner asked for the end of the new one.
    store.getState().setFencing(true);
    store.getState().seekTime(999_000);
    expect(store.getState().playheadMs).toBe(oldEndMs);
    await store.getState().settled();
    expect(store.getState().config.fencing).toBe(true);
    expect(store.getState().playheadMs).toBe(store.getState().events.at(-1)!.at);
  });

  it('resumes past the violation it stopped at, even when the first frame comes early', async () => {
    const store = await newStore();
    store.getState().play();
    for (let i = 0; i < 2000 && store.getState().playing; i++) store.getState().tick(50);
    const stoppedAt = store.getState().playheadMs;
    store.getState().play();
    expect(store.getState().stoppedAtViolation).toBe(false);
    // requestAnimationFrame's timestamp can be earlier than the performance.now() taken when play began.
    store.getState().tick(-3);
    store.getState().tick(50);
    expect(store.getState().playing).toBe(true);
    expect(store.getState().stoppedAtViolation).toBe(false);
    expect(store.getState().playheadMs).toBeGreaterThan(stoppedAt);
  });

  it('scrubs to a typed time and steps back to the same events', async () => {
    const store = await newStore();
    store.getState().seekTime(12_000);
    expect(store.getState().playheadMs).toBe(12_000);
    expect(store.getState().events[store.getState().cursor]!.at).toBeLessThanOrEqual(12_000);
    const before = store.getState().cursor;
    store.getState().stepForward();
    store.getState().stepBack();
    expect(store.getState().cursor).toBeLessThanOrEqual(before);
  });

  it('a console command is a learner action: it runs on the node and its reply is in the transcript', async () => {
    const store = await newStore();
    store.getState().seekTime(1000);
    // The second command is typed while the first one's run still computes: it builds on it.
    store.getState().act({ do: 'command', target: 'r1', argv: ['GET', 'lock'] });
    store.getState().act({ do: 'command', target: 'r1', argv: ['SET', 'note', 'hi'] });
    await store.getState().settled();
    const { events, cursor } = store.getState();
    const transcript = consoleTranscript(events, cursor);
    expect(transcript.map((t) => t.command)).toEqual(['GET lock', 'SET note hi']);
    expect(transcript[0]!.reply![0]).toMatch(/^"A-[0-9a-f]+"$/);
    expect(transcript[1]!.reply).toEqual(['OK']);
  });

  it('a partition from the controls cuts the client off and shows in the trace', async () => {
    const store = await newStore();
    const actors =
      store.getState().events[0]!.kind === 'run.start'
        ? (store.getState().events[0] as { data: { actors: { id: string; label: string; role: 'client' }[] } }).data
            .actors
        : [];
    store.getState().seekTime(500);
    store.getState().act(partitionAction(actors, 'B', 'everyone', false));
    await store.getState().settled();
    expect(store.getState().events.some((e) => e.kind === 'net.partition')).toBe(true);
    expect(
      store.getState().events.some((e) => e.kind === 'net.drop' && e.data.to === 'r1' && e.data.reason === 'partition'),
    ).toBe(true);
  });
});

describe('actor commands', () => {
  const actor = { id: 'A', label: 'Barista A', role: 'client' as const };
  const settings = { pauseMs: 5000, clockJumpMs: -2000 };
  const redis = (nodes: Array<{ id: string; replicaOf?: string }>, sentinels = false) =>
    ({ nodes, ...(sentinels ? { sentinels: {} } : {}) }) as never;
  const scope = (controls: string[], r = redis([{ id: 'r1' }])) =>
    faultScope({ controls: controls as never, redis: r });
  it('offers only what the scenario allows, enabled only when it makes sense', () => {
    const running = actorCommands(actor, 'running', scope(['pause', 'resume']), settings, null);
    expect(running.map((c) => [c.label, c.enabled])).toEqual([
      ['Pause Barista A for 5 s', true],
      ['Resume Barista A', false],
    ]);
    const crashed = actorCommands(actor, 'crashed', scope(['crash', 'restart', 'clock-jump']), settings, null);
    expect(crashed.map((c) => [c.id, c.enabled])).toEqual([
      ['crash', false],
      ['restart', true],
      ['clock-jump', false],
    ]);
    expect(crashed.find((c) => c.id === 'clock-jump')!.label).toBe("Jump Barista A's clock −2 s");
  });
  it('offers failover on a primary that has replicas, never on a replica', () => {
    const replicated = scope(['failover'], redis([{ id: 'r1' }, { id: 'r2', replicaOf: 'r1' }]));
    const r1 = { id: 'r1', label: 'Redis r1', role: 'redis' as const };
    const r2 = { id: 'r2', label: 'Redis r2', role: 'redis' as const };
    expect(actorCommands(r1, 'running', replicated, settings, null).map((c) => c.id)).toEqual(['failover']);
    expect(actorCommands(r2, 'running', replicated, settings, null)).toEqual([]);
    // Under Sentinel, a replica promoted during the run can be failed over in turn.
    const watched = scope(['failover'], redis([{ id: 'r1' }, { id: 'r2', replicaOf: 'r1' }], true));
    expect(actorCommands(r2, 'running', watched, settings, 'primary').map((c) => c.id)).toEqual(['failover']);
    expect(actorCommands(r1, 'running', watched, settings, 'replica')).toEqual([]);
  });
  it('offers no failover where it would do nothing, and no power loss on a lock service', () => {
    const lone = { id: 'r1', label: 'Redis r1', role: 'redis' as const };
    expect(actorCommands(lone, 'running', scope(['failover', 'power-loss']), settings, null).map((c) => c.id)).toEqual([
      'power-loss',
    ]);
    // A lock service's lane is drawn like a Redis lane, but it is not a Redis node.
    const etcd = { id: 'etcd', label: 'etcd', role: 'redis' as const };
    expect(actorCommands(etcd, 'running', scope(['failover', 'power-loss']), settings, null)).toEqual([]);
  });
});

describe('the inspector', () => {
  it('shows the lock key with a TTL that counts down between events, and what each client believes', () => {
    const run = computeRun(scenario, { seed: 7, fencing: false, actions: [] }, scripts);
    const inspector = new RunInspector(scenario, { seed: 7, fencing: false, actions: [] }, scripts);
    const acquired = run.events.find((e) => e.kind === 'lock.acquired' && e.actor === 'A')!;
    const at = inspector.at(run.events, acquired.id, acquired.at);
    const lock = at.nodes[0]!.keys.find((k) => k.key === 'lock')!;
    expect(lock.value).toMatch(/^A-/);
    expect(lock.ttlMs).toBeGreaterThan(9_900);
    expect(at.clients.find((c) => c.id === 'A')!.beliefs.map((b) => b.key)).toEqual(['lock']);
    const later = inspector.at(run.events, acquired.id, acquired.at + 4000);
    expect(later.nodes[0]!.keys.find((k) => k.key === 'lock')!.ttlMs).toBe(lock.ttlMs! - 4000);
    // Stepping back re-replays: the same answer as going straight there.
    const again = inspector.at(run.events, acquired.id, acquired.at);
    expect(again).toEqual(at);
  });

  it("shows the learner's edited run, not the lesson's: with the scripted pause moved to 1 s, A is frozen at 1.5 s", () => {
    const config = { seed: 7, fencing: false, actions: [], edits: [{ edit: 'move' as const, mark: 0, toMs: 1000 }] };
    const run = computeRun(scenario, config, scripts);
    const cursor = run.events.findLastIndex((e) => e.at <= 1500);
    const at = new RunInspector(scenario, config, scripts).at(run.events, cursor, 1500);
    // A's own clock reads the playhead's time: the inspector stood at 1.5 s of the edited run.
    expect(at.clients.find((c) => c.id === 'A')).toMatchObject({ status: 'paused', clockMs: 1500 });
  });
});

describe('share links', () => {
  it('round-trip a run exactly: the decoded run gives the same trace hash', () => {
    const config = {
      seed: 9,
      fencing: true,
      actions: [
        { at: simTime(3000), do: 'pause' as const, target: 'B', forMs: 4000 },
        { at: simTime(1000), do: 'command' as const, target: 'r1', argv: ['SET', 'x', 'a b'] },
      ],
    };
    const decoded = decodeRun(encodeRun({ scenarioId: 'barista', config }));
    expect(decoded.ok).toBe(true);
    if (!decoded.ok) return;
    expect(decoded.run.scenarioId).toBe('barista');
    const a = computeRun(scenario, { ...config, actions: [...config.actions].sort((x, y) => x.at - y.at) }, scripts);
    const b = computeRun(scenario, decoded.run.config, scripts);
    expect(b.traceHash).toBe(a.traceHash);
  });

  it('carries a sandbox scenario and validates it on the way back', () => {
    const decoded = decodeRun(
      encodeRun({ scenarioId: scenario.id, config: { seed: 1, fencing: false, actions: [] }, scenario }),
    );
    expect(decoded.ok && decoded.run.scenario?.clients.map((c) => c.id)).toEqual(['A', 'B']);
  });

  it('reports a damaged, a too-new and a too-long link instead of loading it', () => {
    const good = encodeRun({ scenarioId: 'barista', config: { seed: 1, fencing: false, actions: [] } });
    expect(decodeRun(good.slice(0, good.length - 7))).toMatchObject({ ok: false, problem: 'damaged' });
    expect(decodeRun('not base64 at all!')).toMatchObject({ ok: false, problem: 'damaged' });
    const newer = Buffer.from(JSON.stringify({ v: 99, s: 'barista', seed: 1, f: false, a: [] })).toString('base64url');
    expect(decodeRun(newer)).toMatchObject({ ok: false, problem: 'too-new' });
    const evil = Buffer.from(
      JSON.stringify({ v: 1, s: 'barista', seed: 1, f: false, a: [{ at: 1, do: 'format-disk' }] }),
    ).toString('base64url');
    expect(decodeRun(evil)).toMatchObject({ ok: false, problem: 'damaged' });
    expect(decodeRun('a'.repeat(MAX_LINK_CHARS + 1))).toMatchObject({ ok: false, problem: 'too-long' });
    const many = Array.from({ length: 400 }, (_, i) => ({
      at: simTime(i),
      do: 'command' as const,
      target: 'r1',
      argv: ['SET', `key-${i}`, 'x'.repeat(20)],
    }));
    expect(() => encodeRun({ scenarioId: 'barista', config: { seed: 1, fencing: false, actions: many } })).toThrow(
      /too long to share/,
    );
  });

  it('puts the run in the fragment query and keeps the route', () => {
    expect(shareUrl('https://h/lockstep/#/lesson/paused-barista?run=old', 'NEW')).toBe(
      'https://h/lockstep/#/lesson/paused-barista?run=NEW',
    );
    expect(shareUrl('https://h/lockstep/', 'X')).toBe('https://h/lockstep/#/?run=X');
  });
});
