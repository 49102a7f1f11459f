import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { buildCatalog } from '../../lessons/catalog';
import { readLessonSources } from '../../lessons/sources';
import { loadLuaEngine } from '../../redis/lua';
import { defaultRunConfig } from '../player/runModel';
import { computeRun } from '../worker/computeRun';
import { DEFAULT_SANDBOX, sandboxScenario } from '../playground/sandboxModel';
import { computeFirstRuns, computeSandboxFirstRun, firstPlayers, FIRST_RUNS_MAX_GZ_BYTES, serializeFirstRuns, type FirstRuns } from './firstRuns';

const lessons = buildCatalog(readLessonSources('lessons')).lessons;

describe('the first runs shipped with the lessons', () => {
  it("are, for every lesson, exactly the run a fresh simulator computes for the lesson's first player", async () => {
    // As the build does: every lesson in turn on one engine, then through the JSON the page parses.
    const shared = await loadLuaEngine();
    const shipped = new Map<string, FirstRuns>(lessons.map((l) => [l.frontmatter.slug, JSON.parse(serializeFirstRuns(computeFirstRuns(l, shared))) as FirstRuns]));
    let compared = 0;
    for (const lesson of lessons) {
      const runs = shipped.get(lesson.frontmatter.slug)!;
      for (const [key, scenario] of firstPlayers(lesson)) {
        if (!Object.hasOwn(runs, key)) continue;
        // A fresh engine, as a page's worker starts with.
        const fresh = computeRun(scenario, defaultRunConfig(scenario), await loadLuaEngine());
        expect(runs[key], `${lesson.file}, player ${key}`).toStrictEqual(fresh);
        compared++;
      }
    }
    // Nearly every lesson's first run is small enough to ship.
    expect(compared).toBeGreaterThan(lessons.length * 0.8);
  }, 120_000);

  it('leave a run heavier than the cap to the worker (the fifty-client herd), and ship a small one', async () => {
    const scripts = await loadLuaEngine();
    const bySlug = (slug: string) => lessons.find((l) => l.frontmatter.slug === slug)!;
    const herd = bySlug('misconceptions-herd');
    const [key, scenario] = firstPlayers(herd)[0]!;
    const whole = computeRun(scenario, defaultRunConfig(scenario), scripts);
    expect(gzipSync(serializeFirstRuns({ [key]: whole })).length).toBeGreaterThan(FIRST_RUNS_MAX_GZ_BYTES);
    expect(computeFirstRuns(herd, scripts)).toEqual({});

    const groundRules = computeFirstRuns(bySlug('ground-rules'), scripts);
    expect(Object.keys(groundRules)).toEqual([firstPlayers(bySlug('ground-rules'))[0]![0]]);
    expect(gzipSync(serializeFirstRuns(groundRules)).length).toBeLessThanOrEqual(FIRST_RUNS_MAX_GZ_BYTES);
  }, 60_000);

  it("include the sandbox's opening world: the run a fresh simulator computes for it", async () => {
    const built = sandboxScenario(DEFAULT_SANDBOX);
    if (!built.ok) throw new Error(built.message);
    const shipped = JSON.parse(serializeFirstRuns(computeSandboxFirstRun(await loadLuaEngine()))) as FirstRuns;
    expect(Object.keys(shipped)).toEqual(['sandbox']);
    expect(shipped.sandbox).toStrictEqual(computeRun(built.scenario, defaultRunConfig(built.scenario), await loadLuaEngine()));
  }, 60_000);
});
