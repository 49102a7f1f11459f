import { describe, expect, it } from 'vitest';
import { simTime } from './time';
import { actorOf, numberOf, Trace, TraceCodec, withActor } from './trace';
import type { TraceKind } from './traceEvents';

/** Packs a message id and a peer's actor id in one number, as the network does. */
class Sent extends TraceCodec {
  decoded = 0;
  decode(_kind: TraceKind, num: number, ref: unknown, trace: Trace): unknown {
    this.decoded++;
    return { msg: num >> 8, to: trace.actorName(num & 255), label: ref };
  }
}

describe('trace', () => {
  it('keeps every event across many chunks, in order, with its time, kind, actor and data', () => {
    const trace = new Trace();
    const kinds: TraceKind[] = ['net.send', 'net.deliver', 'lock.request', 'actor.state'];
    for (let i = 0; i < 5000; i++) trace.append(simTime(i * 3), kinds[i % 4]!, `actor-${i % 7}`, { i } as never);
    expect(trace.length).toBe(5000);
    for (const id of [0, 1, 1023, 1024, 2047, 2048, 4999]) {
      expect(trace.get(id)).toEqual({ id, at: id * 3, kind: kinds[id % 4], actor: `actor-${id % 7}`, data: { i: id } });
      expect(trace.timeAt(id)).toBe(id * 3);
      expect(trace.kindAt(id)).toBe(kinds[id % 4]);
    }
    expect(() => trace.get(5000)).toThrow(RangeError);
    expect(
      trace
        .ofKinds(new Set<TraceKind>(['lock.request']))
        .map((e) => e.id)
        .slice(0, 3),
    ).toEqual([2, 6, 10]);
  });

  it('refuses an event earlier than the one before it: readers take the trace to be in time order', () => {
    const trace = new Trace();
    trace.append(simTime(10), 'run.start', 'world', {} as never);
    trace.append(simTime(10), 'net.send', 'A', {} as never);
    expect(() => trace.append(simTime(9), 'net.send', 'A', {} as never)).toThrow(
      /Event 2 at 9 ms comes before the one it follows \(10 ms\)/,
    );
    expect(() => new Trace().append(simTime(-1), 'run.start', 'world', {} as never)).toThrow(/Event 0 at -1 ms/);
  });

  it('refuses more actors than its tags have bits for, and a message id too large to pack with a peer', () => {
    const trace = new Trace();
    for (let i = 0; i < 2 ** 20; i++) trace.actorId(`a${i}`);
    expect(() => trace.actorId('one-more')).toThrow(/at most 1048576 actors; "one-more" would be one more/);
    expect(withActor(-3, 5)).toBe(-3 * 2 ** 20 + 5);
    expect(() => withActor(2 ** 40, 1)).toThrow(/Cannot pack/);
    expect(() => withActor(1, 2 ** 20)).toThrow(/Cannot pack/);
  });

  it('decodes coded events from their number and reference on every read, and hashes them like plain data', () => {
    const trace = new Trace();
    const sent = new Sent();
    const tag = trace.tagOf('net.send', 'A');
    for (let i = 0; i < 3000; i++)
      trace.appendCoded(simTime(i), tag, sent, (i << 8) + trace.actorId(`r${i % 3}`), 'GET k');
    trace.append(simTime(3000), 'net.drop', 'r1', { msg: 1, to: 'r1', label: 'GET k', reason: 'loss' });
    expect(sent.decoded).toBe(0);
    expect(trace.get(2999)).toEqual({
      id: 2999,
      at: 2999,
      kind: 'net.send',
      actor: 'A',
      data: { msg: 2999, to: 'r2', label: 'GET k' },
    });
    expect(trace.get(3000).data).toEqual({ msg: 1, to: 'r1', label: 'GET k', reason: 'loss' });
    const plain = new Trace();
    for (let i = 0; i < 3000; i++)
      plain.append(simTime(i), 'net.send', 'A', { msg: i, to: `r${i % 3}`, label: 'GET k' } as never);
    plain.append(simTime(3000), 'net.drop', 'r1', { msg: 1, to: 'r1', label: 'GET k', reason: 'loss' });
    expect(trace.hash()).toBe(plain.hash());
  });

  it('packs a number (negative too) and an actor id into one coded number and back', () => {
    for (const [n, actor] of [
      [0, 0],
      [7, 3],
      [-1, 5],
      [2 ** 32, 2 ** 20 - 1],
      [-123456, 0],
    ] as const) {
      const packed = withActor(n, actor);
      expect([numberOf(packed), actorOf(packed)]).toEqual([n, actor]);
    }
  });
  it("hands a released trace's columns to the next trace, which reads back exactly what it recorded", () => {
    // Two full chunks of numbers nothing else records, then released.
    const old = new Trace();
    const oldTag = old.tagOf('net.send', 'Z');
    for (let i = 0; i < 2048; i++) old.appendCoded(simTime(999_000 + i), oldTag, new Sent(), 0x7fff_ffff, 'stale');
    old.release();
    expect(old.length).toBe(0);
    expect(() => old.get(0)).toThrow(RangeError);

    // The same events recorded on reused columns and on new ones: identical, event by event and by hash.
    const record = (trace: Trace) => {
      const sent = new Sent();
      const tag = trace.tagOf('net.send', 'A');
      for (let i = 0; i < 1500; i++) {
        if (i % 3 === 0) trace.append(simTime(i), 'lock.request', `c${i % 5}`, { key: 'k' } as never);
        else trace.appendCoded(simTime(i), tag, sent, (i << 8) + trace.actorId('r1'), 'SET k');
      }
      return trace;
    };
    const reused = record(new Trace());
    const fresh = record(new Trace());
    expect(reused.toArray()).toEqual(fresh.toArray());
    expect(reused.hash()).toBe(fresh.hash());
    expect(reused.get(1).data).toEqual({ msg: 1, to: 'r1', label: 'SET k' });
  });
});
