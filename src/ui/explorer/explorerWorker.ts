import '../zodWithoutEval';
import * as Comlink from 'comlink';
import { luaWasmUrl } from '../../redis/lua/wasmUrl';
import { loadScriptEngine } from '../../scenario/running/run';
import { createExplorerApi } from './explorerApi';
import type { ExplorerWorkerApi } from './pool';

/**
 * An explorer worker: searches batches of fault schedules off the page's main thread. The page
 * starts one per core (pool.ts) and terminates it when Stop is pressed or a batch overruns.
 */
const api = loadScriptEngine({ wasmUrl: luaWasmUrl }).then(createExplorerApi);

const exposed: ExplorerWorkerApi = {
  ready: async () => void (await api),
  plan: async (...args) => (await api).plan(...args),
  search: async (...args) => (await api).search(...args),
  shrink: async (...args) => (await api).shrink(...args),
  exhaustPlan: async (...args) => (await api).exhaustPlan(...args),
  exhaustRange: async (...args) => (await api).exhaustRange(...args),
};

Comlink.expose(exposed);
