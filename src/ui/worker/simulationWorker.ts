import '../zodWithoutEval';
import * as Comlink from 'comlink';
import { luaWasmUrl } from '../../redis/lua/wasmUrl';
import { PROGRESS_MESSAGE, type WorkerApi } from './jobQueue';
import { parcelBuffers } from './runParcel';
import type { SimulationApi } from './simulationApi';

/**
 * The simulation worker: builds, runs and inspects runs off the page's main thread,
 * so nothing a scenario does (a runaway script, a pattern that backtracks for a minute) can
 * freeze the page. The page's watchdog (jobQueue.ts) terminates it when a job overruns.
 *
 * This entry is small on purpose: the Lua VM (its binding and Redis's Lua in WebAssembly) and the
 * simulator are separate chunks fetched side by side when the page first asks, so the VM's
 * load, the slow part of a first run, does not wait for the simulator's code to download and
 * compile.
 */
let api: Promise<SimulationApi> | null = null;

/**
 * Loads the Lua VM and the simulator, on the page's first request: the page may start this
 * worker early and ask it to load only once what the learner reads first has arrived.
 */
function load(): Promise<SimulationApi> {
  if (api) return api;
  // Ask for the Lua VM's WebAssembly at once: the engine's chunk, which asks for it itself, must
  // first arrive, wait for the simulator's chunk to compile on this thread, and run. The site's
  // assets are cached as immutable, so the glue's own request is then answered by the HTTP cache
  // (or joins this one while it is still on its way) rather than by the network.
  void fetch(luaWasmUrl)
    .then((response) => response.arrayBuffer())
    .catch(() => undefined);
  const scripts = import('../../redis/lua').then((lua) => lua.loadLuaEngine({ wasmUrl: luaWasmUrl }));
  // Each job says as it moves on, so the page's watchdog stops only a step that never ends.
  const progressed = () => self.postMessage(PROGRESS_MESSAGE);
  api = Promise.all([scripts, import('./simulationApi')]).then(([engine, { createSimulationApi }]) =>
    createSimulationApi(engine, progressed),
  );
  return api;
}

const exposed: WorkerApi = {
  ready: async () => void (await load()),
  // A run's event slices are handed to the page, not copied (runParcel.ts).
  run: async (...args) => {
    const parcel = (await load()).run(...args);
    return Comlink.transfer(parcel, parcelBuffers(parcel));
  },
  inspect: async (...args) => (await load()).inspect(...args),
  read: async (...args) => (await load()).read(...args),
};

Comlink.expose(exposed);
