import { describe, expect, it } from 'vitest';
import { loadScenario } from '../cli/loadScenario';
import { worldSpec } from '../scenario/running/build';
import { runScenarioTrace } from '../scenario/running/run';
import type { Scenario } from '../scenario/schema/schema';
import { RealNetwork } from './realNetwork';

describe('the real network', () => {
  it('drops the messages the simulator drops under a fractional loss, when the same messages are sent', async () => {
    // Lesson 1's lost-reply with half of every message between the baristas and r1 lost and a
    // uniform delay, no script: the clients time out and retry, so many messages cross each link.
    const loaded = loadScenario('lessons/01-when-redis-is-silent.md#lost-reply');
    if (!loaded.ok) throw new Error(loaded.problems.join('\n'));
    const pairs = [
      ['A', 'r1'],
      ['r1', 'A'],
      ['B', 'r1'],
      ['r1', 'B'],
    ] as const;
    const scenario = {
      ...loaded.scenario,
      clients: loaded.scenario.clients.map((c) => ({ ...c, timeoutMs: 300 })),
      network: {
        ...loaded.scenario.network,
        latency: { dist: 'uniform', min: 1, max: 9 },
        links: pairs.map(([from, to]) => ({ from, to, loss: 0.5 })),
      },
      script: [],
    } as Scenario;
    const { trace } = await runScenarioTrace(scenario);
    const network = new RealNetwork(scenario.seed, worldSpec(scenario).network);
    let messages = 0;
    for (const [from, to] of pairs) {
      const lost = new Set(
        trace.flatMap((e) => (e.kind === 'net.drop' && e.data.reason === 'loss' && e.actor === to ? [e.data.msg] : [])),
      );
      const simulated = trace.flatMap((e) =>
        e.kind === 'net.send' && e.actor === from && e.data.to === to ? [lost.has(e.data.msg) ? 'lost' : 'kept'] : [],
      );
      const real = simulated.map(() => (network.send(from, to).lost ? 'lost' : 'kept'));
      expect(real, `${from} → ${to}`).toEqual(simulated);
      messages += simulated.length;
    }
    expect(messages).toBeGreaterThan(6);
    expect(trace.some((e) => e.kind === 'net.drop' && e.data.reason === 'loss')).toBe(true);
  });
});
