import * as Comlink from 'comlink';
import { MessageChannel } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { buildCatalog } from '../../lessons/catalog';
import { readLessonSources } from '../../lessons/sources';
import { loadLuaEngine } from '../../redis/lua';
import type { Scenario } from '../../scenario/schema/schema';
import { simTime } from '../../sim/time';
import { defaultRunConfig, type RunConfig } from '../player/runModel';
import { computeRun } from './computeRun';
import { packRun, parcelBuffers, SLICE_EVENTS, unpackRun, type RunParcel } from './runParcel';

const lessons = buildCatalog(readLessonSources('lessons')).lessons;
const barista = lessons.find((l) => l.frontmatter.slug === 'paused-barista')!;
const scenario = barista.blocks.find((b) => b.kind === 'scenario')!.scenario as Scenario;

const channels: MessageChannel[] = [];
afterEach(() => channels.splice(0).forEach((c) => (c.port1.close(), c.port2.close())));

describe('a run crossing from the simulation worker to the page', () => {
  it('arrives over a real message port exactly as the simulator computed it, its events as JSON bytes handed over, not copied', async () => {
    const scripts = await loadLuaEngine();
    const config: RunConfig = {
      seed: 7,
      fencing: true,
      actions: [{ at: simTime(12_000), do: 'pause', target: 'B', forMs: 15_000 }],
    };
    const computed = computeRun(scenario, config, scripts);
    const channel = new MessageChannel();
    channels.push(channel);
    let sent: RunParcel | undefined;
    Comlink.expose(
      {
        run: () => {
          sent = packRun(computed);
          return Comlink.transfer(sent, parcelBuffers(sent));
        },
      },
      channel.port1 as unknown as Comlink.Endpoint,
    );
    const remote = Comlink.wrap<{ run: () => RunParcel }>(channel.port2 as unknown as Comlink.Endpoint);

    const parcel = await remote.run();

    expect(parcel.eventSlices.every((slice) => slice instanceof Uint8Array && slice.byteLength > 0)).toBe(true);
    // Handed over: the sender's buffers are empty now (a copy would have left them whole).
    expect(sent!.eventSlices.map((slice) => slice.byteLength)).toEqual(sent!.eventSlices.map(() => 0));
    expect(await unpackRun(parcel)).toStrictEqual(computed);
  });

  it('comes in slices that the page parses one per task, in order, and the worker says it moves on after each', async () => {
    const events = Array.from({ length: 2 * SLICE_EVENTS + 5 }, (_, id) => ({
      id,
      at: id,
      kind: 'net.send',
      actor: 'A',
      data: { msg: id },
    }));
    const run = { events, verdicts: [], traceHash: 'h', ended: 'event-cap' } as unknown as Parameters<
      typeof packRun
    >[0];
    let progressed = 0;
    const parcel = packRun(run, () => progressed++);
    expect([parcel.eventSlices.length, progressed]).toEqual([3, 3]);
    let turns = 0;
    expect(await unpackRun(parcel, async () => void turns++)).toStrictEqual(run);
    expect(turns).toBe(2);
  });

  it('keeps an empty run whole', async () => {
    const run = { events: [], verdicts: [], traceHash: 'h', ended: 'idle' } as unknown as Parameters<typeof packRun>[0];
    expect(await unpackRun(packRun(run))).toStrictEqual(run);
  });
});

describe('every scenario of every lesson', () => {
  it('crosses as JSON unchanged: its default run has nothing JSON would drop or alter', async () => {
    const scripts = await loadLuaEngine();
    let checked = 0;
    for (const lesson of lessons) {
      for (const block of lesson.blocks) {
        const scenarios =
          block.kind === 'scenario'
            ? [block.scenario]
            : block.kind === 'compare'
              ? [block.left.scenario, block.right.scenario]
              : [];
        for (const s of scenarios) {
          const run = computeRun(s as Scenario, defaultRunConfig(s as Scenario), scripts);
          expect(await unpackRun(packRun(run)), `${lesson.frontmatter.slug}: ${(s as Scenario).id}`).toStrictEqual(run);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(100);
  }, 120_000);
});
