/**
 * Lesson 13's thundering herd as a bench figure, one JSON line per scenario:
 * {"name":"herd.run_ms.fixed","value":42.1,"unit":"ms","goal":200,...}
 *
 * Run it bundled, as `npm run bench` runs its own file (tsx slows closures down, see bench.ts):
 *   npx esbuild src/cli/benchHerd.ts --bundle --platform=node --format=esm --packages=external \
 *     --outfile=node_modules/.cache/lockstep/benchHerd.mjs --log-level=warning \
 *     && node node_modules/.cache/lockstep/benchHerd.mjs
 */
import { herdRunMs } from '../bench/herd';
import { loadScriptEngine } from '../scenario/run';
import { loadScenario } from './loadScenario';

const GOAL_MS = 200;

async function main(): Promise<void> {
  const scripts = await loadScriptEngine();
  for (const name of ['fixed', 'backoff']) {
    const loaded = loadScenario(`lessons/scenarios/herd-${name}.yaml`);
    if (!loaded.ok) throw new Error(loaded.problems.join('\n'));
    const ms = herdRunMs(loaded.scenario, scripts);
    console.log(JSON.stringify({ name: `herd.run_ms.${name}`, value: ms.median, unit: 'ms', goal: GOAL_MS, min: ms.min, max: ms.max, trace_events: ms.events }));
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
