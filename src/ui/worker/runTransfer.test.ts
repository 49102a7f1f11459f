import * as Comlink from 'comlink';
import { MessageChannel } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { buildCatalog } from '../../lessons/catalog';
import { readLessonSources } from '../../lessons/sources';
import { loadLuaEngine } from '../../redis/lua';
import type { Scenario } from '../../scenario/schema';
import { defaultRunConfig, type ComputedRun, type RunConfig } from '../player/runModel';
import { computeRun } from './computeRun';
import './runTransfer';
import { simTime } from '../../sim/time';

const lessons = buildCatalog(readLessonSources('lessons')).lessons;
const barista = lessons.find((l) => l.frontmatter.slug === 'paused-barista')!;
const scenario = barista.blocks.find((b) => b.kind === 'scenario')!.scenario as Scenario;

const channels: MessageChannel[] = [];
afterEach(() => channels.splice(0).forEach((c) => (c.port1.close(), c.port2.close())));

/** A simulator behind a real message port, as the page talks to its worker, and what crossed the port. */
function overPort(run: (config: RunConfig) => ComputedRun) {
  const channel = new MessageChannel();
  channels.push(channel);
  const wire: unknown[] = [];
  channel.port2.on('message', (message: unknown) => wire.push(message));
  Comlink.expose({ run }, channel.port1 as unknown as Comlink.Endpoint);
  const remote = Comlink.wrap<{ run: (config: RunConfig) => ComputedRun }>(channel.port2 as unknown as Comlink.Endpoint);
  return { remote, wire };
}

describe("a run crossing from the simulation worker to the page", () => {
  it('arrives exactly as the simulator computed it, sent as one JSON string', async () => {
    const scripts = await loadLuaEngine();
    const config: RunConfig = { seed: 7, fencing: true, actions: [{ at: simTime(12_000), do: 'pause', target: 'B', forMs: 15_000 }] };
    const computed = computeRun(scenario, config, scripts);
    const { remote, wire } = overPort(() => computed);

    const arrived = await remote.run(config);

    expect(arrived).toStrictEqual(computed);
    expect(arrived.traceHash).toBe(computed.traceHash);
    const reply = wire.find((m) => (m as { type?: string }).type === 'HANDLER') as { name: string; value: unknown } | undefined;
    expect(reply?.name).toBe('computed-run');
    expect(typeof reply?.value).toBe('string');
  });

  it('leaves every other answer to structured clone', async () => {
    const { remote, wire } = overPort(() => ({ cursor: 3, events: 'not a run' }) as unknown as ComputedRun);
    expect(await remote.run({ seed: 1, fencing: false, actions: [] })).toStrictEqual({ cursor: 3, events: 'not a run' });
    expect(wire.some((m) => (m as { type?: string }).type === 'HANDLER')).toBe(false);
  });
});

describe('every scenario of every lesson', () => {
  it('crosses as JSON unchanged: its default run has nothing JSON would drop or alter', async () => {
    const scripts = await loadLuaEngine();
    let checked = 0;
    for (const lesson of lessons) {
      for (const block of lesson.blocks) {
        const scenarios = block.kind === 'scenario' ? [block.scenario] : block.kind === 'compare' ? [block.left.scenario, block.right.scenario] : [];
        for (const s of scenarios) {
          const run = computeRun(s as Scenario, defaultRunConfig(s as Scenario), scripts);
          expect(JSON.parse(JSON.stringify(run)), `${lesson.frontmatter.slug}: ${(s as Scenario).id}`).toStrictEqual(run);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(100);
  }, 120_000);
});
