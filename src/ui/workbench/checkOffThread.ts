import type { ScenarioResult } from '../../scenario/text/parse';
import { checkScenarioText, WORKBENCH_FILE } from './checkScenarioText';
import type { CheckAnswer, CheckRequest } from './checkWorker';

/**
 * How long a check may take before its worker is stopped and replaced. A scenario the workbench
 * accepts checks in milliseconds; only a pathological one gets near this.
 */
export const CHECK_TIMEOUT_MS = 3000;

let worker: Worker | null = null;
let nextId = 0;
const waiting = new Map<number, (result: ScenarioResult) => void>();
const luaReadyListeners = new Set<() => void>();

function startWorker(): Worker {
  const created = new Worker(new URL('./checkWorker.ts', import.meta.url), { type: 'module' });
  created.onmessage = (e: MessageEvent<CheckAnswer>) => {
    if ('luaReady' in e.data) {
      for (const listener of luaReadyListeners) listener();
      return;
    }
    waiting.get(e.data.id)?.(e.data.result);
    waiting.delete(e.data.id);
  };
  return created;
}

/**
 * Calls `listener` when the check worker has loaded its Lua VM: checks made while it loaded
 * left the scripts unchecked, so the editor checks again. Returns the unsubscribe.
 */
export function onLuaReady(listener: () => void): () => void {
  luaReadyListeners.add(listener);
  return () => luaReadyListeners.delete(listener);
}

/**
 * Checks a scenario text in a Web Worker, so that a large or hostile paste costs the page nothing
 * while it is parsed; the page stays responsive whatever the learner types. A worker that does
 * not answer in CHECK_TIMEOUT_MS is stopped and replaced, and every check it owed reports that.
 * Where workers are unavailable the check runs here, bounded by checkScenarioText's own limits.
 */
export function checkOffThread(
  text: string,
  { waitForLua = false }: { waitForLua?: boolean } = {},
): Promise<ScenarioResult> {
  if (typeof Worker === 'undefined') return Promise.resolve(checkScenarioText(text));
  try {
    worker ??= startWorker();
  } catch {
    return Promise.resolve(checkScenarioText(text));
  }
  const id = ++nextId;
  const request: CheckRequest = { id, text, waitForLua };
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      worker?.terminate();
      worker = null;
      const stopped: ScenarioResult = {
        ok: false,
        diagnostics: [
          {
            file: WORKBENCH_FILE,
            line: 1,
            col: 1,
            message: `checking this scenario took longer than ${CHECK_TIMEOUT_MS / 1000} s and was stopped`,
            hint: 'shorten it: a scenario is a page of YAML',
          },
        ],
      };
      for (const answer of waiting.values()) answer(stopped);
      waiting.clear();
    }, CHECK_TIMEOUT_MS);
    waiting.set(id, (result) => {
      clearTimeout(timer);
      resolve(result);
    });
    worker!.postMessage(request);
  });
}
