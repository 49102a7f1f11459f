import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { buildCatalog } from '../../lessons/catalog';
import { readLessonSources } from '../../lessons/sources';
import { loadLuaEngine } from '../../redis/lua';
import { defaultRunConfig } from '../player/runModel';
import { computeRun } from '../worker/computeRun';
import { DEFAULT_SANDBOX, sandboxScenario } from '../playground/sandboxModel';
import { unpackRun } from '../player/packedRun';
import {
  computeFirstRuns,
  computeSandboxFirstRun,
  firstPlayers,
  FIRST_RUNS_MAX_GZ_BYTES,
  serializeFirstRuns,
  type ShippedRuns,
} from './firstRuns';

const lessons = buildCatalog(readLessonSources('lessons')).lessons;

describe('the first runs shipped with the lessons', () => {
  it("are, for every lesson, exactly the run a fresh simulator computes for the lesson's first player", async () => {
    // As the build does: every lesson in turn on one engine, then packed, through the JSON the
    // page parses, and unpacked as the page does.
    const shared = await loadLuaEngine();
    const shipped = new Map<string, ShippedRuns>(
      lessons.map((l) => [
        l.frontmatter.slug,
        JSON.parse(serializeFirstRuns(computeFirstRuns(l, shared))) as ShippedRuns,
      ]),
    );
    let compared = 0;
    for (const lesson of lessons) {
      const runs = shipped.get(lesson.frontmatter.slug)!;
      for (const [key, scenario] of firstPlayers(lesson)) {
        if (!Object.hasOwn(runs, key)) continue;
        // A fresh engine, as a page's worker starts with.
        const fresh = computeRun(scenario, defaultRunConfig(scenario), await loadLuaEngine());
        const unpacked = unpackRun(runs[key]!);
        expect(unpacked, `${lesson.file}, player ${key}`).toStrictEqual(fresh);
        // Field for field in the same order, as the worker's JSON would give it.
        expect(JSON.stringify(unpacked)).toBe(JSON.stringify(fresh));
        compared++;
      }
    }
    // Every lesson that opens with a player ships its first run, the fifty-client herd included.
    expect(compared).toBe(
      lessons.filter((l) => firstPlayers(l).length > 0).reduce((sum, l) => sum + firstPlayers(l).length, 0),
    );
  }, 120_000);

  it('ship the fifty-client herd packed under the cap, and leave a heavier run to the worker', async () => {
    const scripts = await loadLuaEngine();
    const herd = lessons.find((l) => l.frontmatter.slug === 'misconceptions-herd')!;
    const [key, scenario] = firstPlayers(herd)[0]!;
    const whole = computeRun(scenario, defaultRunConfig(scenario), scripts);
    expect(whole.events.length).toBeGreaterThan(10_000);
    expect(gzipSync(JSON.stringify({ [key]: whole })).length).toBeGreaterThan(2 * FIRST_RUNS_MAX_GZ_BYTES);
    expect(gzipSync(serializeFirstRuns({ [key]: whole })).length).toBeLessThanOrEqual(FIRST_RUNS_MAX_GZ_BYTES);
    expect(Object.keys(computeFirstRuns(herd, scripts))).toEqual([key]);

    // The same herd three times over: 150 baristas, past the cap even packed.
    const clients = [1, 2, 3].flatMap((copy) =>
      scenario.clients.map((c) => ({ ...c, id: `${c.id}x${copy}`, label: `${c.label} (${copy})` })),
    );
    const crowd = {
      ...herd,
      blocks: herd.blocks.map((b) =>
        b.kind === 'scenario' && b.id === key ? { ...b, scenario: { ...b.scenario, clients } } : b,
      ),
    };
    expect(firstPlayers(crowd)[0]![1].clients).toHaveLength(150);
    expect(computeFirstRuns(crowd, scripts)).toEqual({});
  }, 60_000);

  it("include the sandbox's opening world: the run a fresh simulator computes for it", async () => {
    const built = sandboxScenario(DEFAULT_SANDBOX);
    if (!built.ok) throw new Error(built.message);
    const shipped = JSON.parse(serializeFirstRuns(computeSandboxFirstRun(await loadLuaEngine()))) as ShippedRuns;
    expect(Object.keys(shipped)).toEqual(['sandbox']);
    expect(unpackRun(shipped.sandbox!)).toStrictEqual(
      computeRun(built.scenario, defaultRunConfig(built.scenario), await loadLuaEngine()),
    );
  }, 60_000);
});
