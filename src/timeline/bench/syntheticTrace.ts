import type { Verdict } from '../../check/verdict';
import type { ActorInfo, TraceEvent, TraceEventMap, TraceKind } from '../../sim/traceEvents';
import { simTime } from '../../sim/time';

/** Options for a made-up but plausible trace; only `events` is required. */
export interface SyntheticTraceOptions {
  /** Roughly how many events to produce (the last lock cycle may overshoot by a few dozen). */
  events: number;
  clients?: number;
  seed?: number;
  /** Share of messages the network loses, 0..1. */
  dropRate?: number;
}

/**
 * A large synthetic run for measuring the timeline: clients take turns on one lock (SET NX
 * round trip, a write to the resource, a release) while every client also pings Redis, with
 * the odd pause, lost message and stale write. Deterministic for a given seed.
 * @example const { events, verdicts } = syntheticTrace({ events: 50_000 });
 */
export function syntheticTrace(options: SyntheticTraceOptions): { events: TraceEvent[]; verdicts: Verdict[] } {
  const clients = options.clients ?? 6;
  const dropRate = options.dropRate ?? 0.02;
  let rng = (options.seed ?? 1) >>> 0 || 1;
  // xorshift32: tiny and good enough for layout noise; benchmarks need no statistical quality.
  const rand = () => {
    rng ^= rng << 13;
    rng >>>= 0;
    rng ^= rng >>> 17;
    rng ^= rng << 5;
    rng >>>= 0;
    return rng / 0x100000000;
  };
  const events: TraceEvent[] = [];
  const add = <K extends TraceKind>(at: number, kind: K, actor: string, data: TraceEventMap[K]) => {
    events.push({ id: events.length, at, kind, actor, data } as TraceEvent);
  };
  const actors: ActorInfo[] = [
    ...Array.from({ length: clients }, (_, i) => ({ id: `c${i}`, label: `Client ${i + 1}`, role: 'client' as const })),
    { id: 'r1', label: 'Redis', role: 'redis' },
    { id: 'store', label: 'Storage', role: 'resource' },
  ];
  add(0, 'run.start', 'world', { scenario: 'synthetic', seed: options.seed ?? 1, actors });

  let t = 1;
  let msg = 1;
  let token = 0;
  let turn = 0;
  const roundTrip = (client: string, label: string, reply: string, onServer?: (at: number) => void) => {
    const id = msg++;
    add(t, 'net.send', client, { msg: id, to: 'r1', label });
    if (rand() < dropRate) {
      add(t + 1, 'net.drop', client, { msg: id, to: 'r1', label, reason: 'loss' });
      t += 2;
      return;
    }
    t += 1 + Math.floor(rand() * 3);
    add(t, 'net.deliver', 'r1', { msg: id, from: client, label });
    add(t, 'redis.command', 'r1', { msg: id, from: client, argv: label.split(' '), reply });
    onServer?.(t);
    const back = msg++;
    add(t, 'net.send', 'r1', { msg: back, to: client, label: reply });
    t += 1 + Math.floor(rand() * 3);
    add(t, 'net.deliver', client, { msg: back, from: 'r1', label: reply });
  };

  while (events.length < options.events) {
    const client = `c${turn++ % clients}`;
    add(t, 'actor.state', client, { state: 'acquiring' });
    token++;
    roundTrip(client, `SET lock ${client} NX PX 200`, 'OK', (at) =>
      add(at, 'lease.granted', 'r1', { key: 'lock', owner: client, value: client, expiresAtMs: simTime(at + 200) }),
    );
    add(t, 'lock.acquired', client, { key: 'lock', value: client, token, ttlMs: 200 });
    add(t, 'actor.state', client, { state: 'holding' });
    // Background pings from the other clients make the dense layers dense.
    for (let p = 0; p < 3; p++) roundTrip(`c${Math.floor(rand() * clients)}`, 'GET lock', client);
    const paused = rand() < 0.03;
    if (paused) {
      add(t, 'process.pause', client, { forMs: 300 });
      t += 300;
      add(t, 'lease.ended', 'r1', { key: 'lock', owner: client, reason: 'expired' });
      add(t, 'process.resume', client, {});
    }
    add(t, 'resource.request', client, { resource: 'store', token, value: `v${token}` });
    t += 1;
    add(t, 'resource.write', 'store', {
      from: client,
      token,
      value: `v${token}`,
      accepted: !paused,
      highestToken: token - 1,
      reason: paused ? 'stale token' : null,
    });
    add(t, 'actor.state', client, { state: 'releasing' });
    roundTrip(client, `EVAL release lock ${client}`, paused ? '0' : '1', (at) => {
      if (!paused) add(at, 'lease.ended', 'r1', { key: 'lock', owner: client, reason: 'deleted' });
    });
    add(t, 'lock.released', client, { key: 'lock', deleted: !paused });
    add(t, 'actor.state', client, { state: 'idle' });
    t += 1 + Math.floor(rand() * 5);
  }
  add(t, 'run.end', 'world', { reason: 'event-cap' });
  return { events, verdicts: [] };
}
