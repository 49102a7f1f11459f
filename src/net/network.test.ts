import { describe, expect, it } from 'vitest';
import type { Owner } from '../sim/kernel';
import { Prng } from '../sim/prng';
import { Sim } from '../sim/sim';
import { DEFAULT_FAULTS, drawLatencyMs, type LinkFaults } from './faults';
import { Network } from './network';

/** A receiver that is always running, or crashed when `down` is set. */
function endpoint(id: string, state = { down: false }) {
  const owner: Owner = { id, disposition: () => (state.down ? 'drop' : 'run'), freeze: () => {} };
  return { id, owner };
}

function world(faults: Partial<LinkFaults> = {}, seed = 1) {
  const sim = new Sim(seed);
  const net = new Network(sim, { defaults: { ...DEFAULT_FAULTS, ...faults }, links: [] });
  const delivered: string[] = [];
  const run = () => {
    while (sim.kernel.step());
    return sim.trace.toArray();
  };
  return { sim, net, delivered, run };
}

describe('Network', () => {
  it('delivers after a delay drawn from the link, and records send and delivery', () => {
    const { net, delivered, run } = world({ latency: { dist: 'fixed', ms: 40 } });
    net.send('A', endpoint('r1'), 'SET lock', () => delivered.push('SET'));
    const events = run();
    expect(delivered).toEqual(['SET']);
    expect(events.map((e) => [e.kind, e.at])).toEqual([
      ['net.send', 0],
      ['net.deliver', 40],
    ]);
  });

  it('loses every message with loss 1, recording the drop where it would have arrived', () => {
    const { net, delivered, run } = world({ loss: 1, latency: { dist: 'fixed', ms: 7 } });
    net.send('A', endpoint('r1'), 'SET lock', () => delivered.push('SET'));
    const events = run();
    expect(delivered).toEqual([]);
    expect(events.at(-1)).toMatchObject({ kind: 'net.drop', at: 7, data: { reason: 'loss' } });
  });

  it('delivers a duplicated message twice, under the same message id', () => {
    const { net, delivered, run } = world({ duplicate: 1 });
    net.send('A', endpoint('r1'), 'INCR n', () => delivered.push('INCR'));
    const deliveries = run().filter((e) => e.kind === 'net.deliver');
    expect(delivered).toEqual(['INCR', 'INCR']);
    expect(new Set(deliveries.map((e) => (e.data as { msg: number }).msg)).size).toBe(1);
  });

  it('lets a held-back message be overtaken by a later one (reordering)', () => {
    const { net, delivered, run, sim } = world({ latency: { dist: 'fixed', ms: 5 } });
    net.setFaults({ reorder: 1, reorderDelayMs: 100 }, { from: 'A', to: 'r1' });
    net.send('A', endpoint('r1'), 'first', () => delivered.push('first'));
    net.setFaults({ reorder: 0 }, { from: 'A', to: 'r1' });
    sim.kernel.schedule(10, null, () => net.send('A', endpoint('r1'), 'second', () => delivered.push('second')));
    run();
    expect(delivered).toEqual(['second', 'first']);
  });

  it('cuts both directions between partitioned groups and heals on demand', () => {
    const { net, delivered, run, sim } = world();
    net.partition([['A'], ['r1']], false);
    net.send('A', endpoint('r1'), 'to r1', () => delivered.push('to r1'));
    net.send('r1', endpoint('A'), 'to A', () => delivered.push('to A'));
    net.send('B', endpoint('r1'), 'from B', () => delivered.push('from B'));
    sim.kernel.schedule(100, null, () => {
      net.heal();
      net.send('A', endpoint('r1'), 'after heal', () => delivered.push('after heal'));
    });
    const events = run();
    expect(delivered).toEqual(expect.arrayContaining(['from B', 'after heal']));
    expect(delivered).toHaveLength(2);
    expect(events.filter((e) => e.kind === 'net.drop').map((e) => (e.data as { reason: string }).reason)).toEqual([
      'partition',
      'partition',
    ]);
    expect(events.some((e) => e.kind === 'net.heal')).toBe(true);
  });

  it('cuts only one direction in a one-way partition', () => {
    const { net, delivered, run } = world();
    net.partition([['A'], ['r1']], true);
    net.send('A', endpoint('r1'), 'A->r1', () => delivered.push('A->r1'));
    net.send('r1', endpoint('A'), 'r1->A', () => delivered.push('r1->A'));
    run();
    expect(delivered).toEqual(['r1->A']);
  });

  it('drops a message that is on the wire when the partition starts', () => {
    const { net, delivered, run, sim } = world({ latency: { dist: 'fixed', ms: 50 } });
    net.send('A', endpoint('r1'), 'slow', () => delivered.push('slow'));
    sim.kernel.schedule(10, null, () => net.partition([['A'], ['r1']], false));
    const events = run();
    expect(delivered).toEqual([]);
    expect(events.at(-1)).toMatchObject({ kind: 'net.drop', at: 50, data: { reason: 'partition' } });
  });

  it('records a message to a crashed process as dropped', () => {
    const { net, run } = world();
    net.send('A', endpoint('r1', { down: true }), 'SET', () => {});
    expect(run().at(-1)).toMatchObject({ kind: 'net.drop', data: { reason: 'crashed' } });
  });

  it("keeps one link's delays when traffic is added on another link", () => {
    const delays = (extra: boolean) => {
      const { net, sim, run } = world({ latency: { dist: 'uniform', minMs: 1, maxMs: 500 } }, 9);
      for (let i = 0; i < 5; i++) {
        if (extra) net.send('B', endpoint('r1'), 'noise', () => {});
        net.send('A', endpoint('r1'), `m${i}`, () => {});
      }
      void sim;
      return run()
        .filter((e) => e.kind === 'net.deliver' && e.data.from === 'A')
        .map((e) => e.at)
        .sort((a, b) => a - b);
    };
    expect(delays(true)).toEqual(delays(false));
  });
});

describe('latency distributions', () => {
  const sample = (latency: LinkFaults['latency'], n = 4000) => {
    const random = Prng.fromSeed(3);
    return Array.from({ length: n }, () => drawLatencyMs(random, latency)).sort((a, b) => a - b);
  };

  it('keeps uniform draws inside [min, max]', () => {
    const xs = sample({ dist: 'uniform', minMs: 10, maxMs: 20 });
    expect(xs[0]).toBe(10);
    expect(xs.at(-1)).toBe(20);
  });

  it("puts a long tail's median near `median` with a few far slower messages", () => {
    const xs = sample({ dist: 'long-tail', minMs: 2, medianMs: 10, maxMs: 5000 });
    const median = xs[xs.length >> 1]!;
    expect(median).toBeGreaterThanOrEqual(8);
    expect(median).toBeLessThanOrEqual(12);
    // The slowest 1% is many times the median: that is what "long tail" means.
    expect(xs[Math.floor(xs.length * 0.99)]!).toBeGreaterThan(10 * median);
    expect(xs.at(-1)).toBeLessThanOrEqual(5000);
  });
});
