import { gzipSync } from 'node:zlib';
import type { Lesson } from '../../lessons/types';
import type { ScriptEngine } from '../../redis/scriptEngine';
import type { Scenario } from '../../scenario/schema/schema';
import { packRun, type PackedRun } from '../player/packedRun';
import { defaultRunConfig, type ComputedRun } from '../player/runModel';
import { DEFAULT_SANDBOX, sandboxScenario } from '../playground/sandboxModel';
import { computeRun } from '../worker/computeRun';

/**
 * A lesson's runs computed at build time, by player: `<block id>` for a scenario or dashboard
 * block, `<block id>/left` and `<block id>/right` for the sides of a compare block.
 */
export type FirstRuns = Record<string, ComputedRun>;

/** First runs as the site ships them (`serializeFirstRuns`), each packed (player/packedRun.ts). */
export type ShippedRuns = Record<string, PackedRun>;

/**
 * The most a lesson's shipped runs may weigh, packed and gzipped. Without them the first player
 * waits for the worker's Lua VM and simulator (about 235 KB gzipped) and a run on cold code; the
 * heaviest run a lesson opens with, the fifty-client herd, is 56 KB. A run above the cap is left
 * to the worker: past it a download would sit in the way of everything else the page fetches.
 */
export const FIRST_RUNS_MAX_GZ_BYTES = 64 * 1024;

/** The players of the lesson's first block that shows one, each with its key and scenario. */
export function firstPlayers(lesson: Lesson): [key: string, scenario: Scenario][] {
  for (const block of lesson.blocks) {
    if (block.kind === 'scenario') return [[block.id, block.scenario]];
    if (block.kind === 'compare')
      return [
        [`${block.id}/left`, block.left.scenario],
        [`${block.id}/right`, block.right.scenario],
      ];
  }
  return [];
}

/**
 * The default run (see defaultRunConfig) of the lesson's first player, computed here exactly as
 * the simulation worker would: the simulator is deterministic, so the page can show this copy at
 * once instead of waiting for the worker, its Lua VM and a first run on cold code. Empty when the
 * runs weigh more than FIRST_RUNS_MAX_GZ_BYTES or one fails to compute (the worker then says why).
 */
export function computeFirstRuns(lesson: Lesson, scripts: ScriptEngine): FirstRuns {
  const runs: FirstRuns = {};
  try {
    for (const [key, scenario] of firstPlayers(lesson))
      runs[key] = computeRun(scenario, defaultRunConfig(scenario), scripts);
  } catch {
    return {};
  }
  return withinBudget(runs) ? runs : {};
}

/** The sandbox's world as it opens (DEFAULT_SANDBOX), with its default run: shipped the same way, under the key `sandbox`. */
export function computeSandboxFirstRun(scripts: ScriptEngine): FirstRuns {
  const built = sandboxScenario(DEFAULT_SANDBOX);
  if (!built.ok) throw new Error(`the default sandbox does not build: ${built.message}`);
  const runs = { sandbox: computeRun(built.scenario, defaultRunConfig(built.scenario), scripts) };
  return withinBudget(runs) ? runs : {};
}

function withinBudget(runs: FirstRuns): boolean {
  return gzipSync(serializeFirstRuns(runs)).length <= FIRST_RUNS_MAX_GZ_BYTES;
}

/** The runs as the page receives them: packed, as JSON, which the page parses faster than a JavaScript literal of the same data. */
export function serializeFirstRuns(runs: FirstRuns): string {
  const shipped: ShippedRuns = {};
  for (const [key, run] of Object.entries(runs)) shipped[key] = packRun(run);
  return JSON.stringify(shipped);
}
