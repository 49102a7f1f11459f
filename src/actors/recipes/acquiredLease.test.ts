import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { formatDiagnostic } from '../../scenario/diagnostic';
import { parseScenario } from '../../scenario/text/parse';
import { loadScriptEngine } from '../../scenario/running/run';
import { Simulation } from '../../scenario/running/simulation';
import type { ScriptEngine } from '../../redis/scriptEngine';
import { RECIPES, SERVICE_RECIPES } from './catalog';

/**
 * The lease a client records in `lock.acquired` (what the timeline's sentence and the inspector
 * tell the learner) is the lease Redis gave the key: its PTTL on the node just after the command
 * that set it, wherever the expiry was written (an argument, or a line inside a script).
 */

let scripts: ScriptEngine;
beforeAll(async () => {
  scripts = await loadScriptEngine();
});

interface Acquisition {
  client: string;
  recorded: number | null;
  /** The key's PTTL right after its latest change since the client asked (the shortest over nodes, for Redlock). */
  onRedis: number | null;
}

/** Runs `yaml` step by step, watching every lock key on every node, and pairs each lock.acquired with Redis's PTTL. */
function acquisitions(yaml: string): Acquisition[] {
  const parsed = parseScenario(yaml, { file: 'test.yaml', line: 1 });
  if (!parsed.ok) throw new Error(parsed.diagnostics.map(formatDiagnostic).join('\n'));
  const simulation = new Simulation(parsed.scenario, {}, scripts);
  const { trace } = simulation.sim;
  const watched = new Set<string>();
  // node|key -> the key as last seen, and the PTTL it had when it last changed.
  const seen = new Map<
    string,
    { value: string | undefined; expiresAt: number | null | undefined; pttl: number | null; at: number }
  >();
  const askedAt = new Map<string, number>();
  const found: Acquisition[] = [];
  let read = 0;
  let judged = 0;
  while (simulation.step()) {
    for (; read < trace.length; read++) {
      const e = trace.get(read);
      if (e.kind === 'lock.request') {
        watched.add(e.data.key);
        askedAt.set(e.actor, e.at);
      }
    }
    for (const node of simulation.world.nodes) {
      for (const key of watched) {
        const view = node.server.peek(key);
        const slot = `${node.id}|${key}`;
        const last = seen.get(slot);
        if (last && last.value === view?.value && last.expiresAt === view?.expiresAtMs) continue;
        const pttl = view === undefined || view.expiresAtMs === null ? null : view.expiresAtMs - node.unixNowMs();
        seen.set(slot, { value: view?.value, expiresAt: view?.expiresAtMs, pttl, at: simulation.sim.now });
      }
    }
    // A lock.acquired is recorded when the reply reaches the client, after the step that ran
    // the command: the keys as last seen are what the command (and nothing since) left.
    for (; judged < trace.length; judged++) {
      const e = trace.get(judged);
      if (e.kind !== 'lock.acquired') continue;
      const since = askedAt.get(e.actor) ?? 0;
      const leases = simulation.world.nodes
        .map((n) => seen.get(`${n.id}|${e.data.key}`))
        .filter((s) => s !== undefined && s.value !== undefined && s.at >= since)
        .map((s) => s!.pttl);
      const onRedis = leases.includes(null) ? null : Math.min(...(leases as number[]));
      found.push({ client: e.actor, recorded: e.data.ttlMs, onRedis });
    }
  }
  return found;
}

/** A scenario in which one client takes `recipe` twice, alone, with a 7 s lease. */
function recipeScenario(recipe: string): string {
  const nodes =
    recipe === 'redlock' ? 'redis: { nodes: [{ id: r1 }, { id: r2 }, { id: r3 }, { id: r4 }, { id: r5 }] }\n' : '';
  const permits = recipe === 'semaphore' ? ', permits: 2' : '';
  return `id: lease-${recipe}\ntitle: t\nseed: 3\nnetwork: { latency: 2ms }\n${nodes}clients:\n  - { id: A, recipe: ${recipe}, ttl: 7s, work: 1s, jobs: 2${permits} }\nresource: { id: doc }\n`;
}

describe('the lease a lock.acquired records', () => {
  for (const recipe of RECIPES.filter((r) => !SERVICE_RECIPES.includes(r))) {
    it(`is the key's PTTL on Redis, for ${recipe}`, () => {
      const found = acquisitions(recipeScenario(recipe));
      expect(found.length).toBe(2);
      for (const f of found) expect(f.recorded, `${recipe}, client ${f.client}`).toBe(f.onRedis);
      expect(found[0]!.recorded).toBe(7000);
    });
  }

  // Step clients that take the lock with SET inside EVAL (lessons 42, 43, 47, 48), where the
  // expiry is an argument of a script, not of the command.
  for (const file of [
    'clinic-short-ttl',
    'clinic-unfenced-write',
    'clinic-token-before-lock',
    'clinic-review',
    'clinic-short-ttl-fixed',
  ]) {
    it(`is the key's PTTL on Redis, for the step clients of ${file}`, () => {
      const found = acquisitions(readFileSync(`lessons/scenarios/${file}.yaml`, 'utf8'));
      expect(found.length).toBeGreaterThan(0);
      for (const f of found) expect(f.recorded, `${file}, client ${f.client}`).toBe(f.onRedis);
    });
  }

  it('is 2 s in the short-TTL clinic, where the script is given PX 2000 (not the default 10 s)', () => {
    const found = acquisitions(readFileSync('lessons/scenarios/clinic-short-ttl.yaml', 'utf8'));
    expect(found.map((f) => f.recorded)).toEqual(found.map(() => 2000));
  });
});
