import '../zodWithoutEval';
import type { ScenarioResult } from '../../scenario/text/parse';
import { mayHoldScripts, rememberingCompiler, type LuaCompiler } from '../../scenario/text/luaSyntax';
import { boundsProblem, checkScenarioText } from './checkScenarioText';

/** What the page sends: one text to check, numbered so answers can be matched to questions. */
export interface CheckRequest {
  id: number;
  text: string;
  /** Wait for the Lua VM if it is still loading (Run does; typing does not). */
  waitForLua?: boolean;
}

/** What the worker sends: a check's answer, or word that scripts can now be compiled (the page checks again). */
export type CheckAnswer = { id: number; result: ScenarioResult } | { luaReady: true };

const scope = self as unknown as {
  onmessage: ((e: MessageEvent<CheckRequest>) => void) | null;
  postMessage(message: CheckAnswer): void;
};

/**
 * The Lua VM, loaded the first time a text holds a script (a scenario without scripts never
 * pays for it). It compiles scripts and never runs them, so a loop that never ends costs
 * nothing here: running is the simulation worker's job, under its budgets. While it loads,
 * keystrokes get the YAML checks at once, and the page is told when scripts can be checked too.
 */
let compile: LuaCompiler | null = null;
let loading: Promise<void> | null = null;
function loadCompiler(): Promise<void> {
  loading ??= Promise.all([import('../../redis/lua/index'), import('../../redis/lua/wasmUrl')])
    .then(([{ loadLuaEngine }, { luaWasmUrl }]) => loadLuaEngine({ wasmUrl: luaWasmUrl }))
    .then((engine) => {
      compile = rememberingCompiler((body) => engine.compileError(body));
      scope.postMessage({ luaReady: true });
    })
    // Without the VM the YAML checks still stand; a run reports a script that does not compile.
    .catch(() => undefined);
  return loading;
}

async function check({ text, waitForLua = false }: CheckRequest): Promise<ScenarioResult> {
  if (!mayHoldScripts(text) || boundsProblem(text)) return checkScenarioText(text);
  if (!compile) {
    const loaded = loadCompiler();
    if (waitForLua) await loaded;
  }
  return checkScenarioText(text, compile ?? undefined);
}

// A dedicated worker: checks one scenario text per message, off the page's thread.
scope.onmessage = (e) => void check(e.data).then((result) => scope.postMessage({ id: e.data.id, result }));
