import '../zodWithoutEval';
import * as Comlink from 'comlink';
import { luaWasmUrl } from '../../redis/lua/wasmUrl';
import { loadScriptEngine } from '../../scenario/run';
import { createSimulationApi } from './simulationApi';
import type { WorkerApi } from './jobQueue';

/**
 * The simulation worker: builds, runs, inspects and explores runs off the page's main thread,
 * so nothing a scenario does (a runaway script, a pattern that backtracks for a minute) can
 * freeze the page. The page's watchdog (workerRunner.ts) terminates it when a job overruns.
 */
const api = loadScriptEngine({ wasmUrl: luaWasmUrl }).then(createSimulationApi);

const exposed: WorkerApi = {
  ready: async () => void (await api),
  run: async (...args) => (await api).run(...args),
  inspect: async (...args) => (await api).inspect(...args),
  explore: async (...args) => (await api).explore(...args),
};

Comlink.expose(exposed);
