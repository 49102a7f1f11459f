import '../zodWithoutEval';
import type { ScenarioResult } from '../../scenario/parse';
import { boundsProblem, checkScenarioText } from './checkScenarioText';
import { mayHoldScripts, withLuaSyntax, type LuaCompiler } from './luaDiagnostics';

/** What the page sends: one text to check, numbered so answers can be matched to questions. */
export interface CheckRequest {
  id: number;
  text: string;
}

/**
 * The Lua VM, loaded the first time a text holds a script (≈100–250 ms once; a scenario without
 * scripts never pays it). It compiles scripts and never runs them, so a loop that never ends
 * costs nothing here: running is the simulation worker's job, under its budgets.
 */
let compiler: Promise<LuaCompiler | null> | null = null;
function luaCompiler(): Promise<LuaCompiler | null> {
  compiler ??= Promise.all([import('../../redis/lua/index'), import('../../redis/lua/wasmUrl')])
    .then(([{ loadLuaEngine }, { luaWasmUrl }]) => loadLuaEngine({ wasmUrl: luaWasmUrl }))
    .then(
      (engine) => (body: string) => engine.compileError(body),
      // Without the VM the YAML checks still stand; the run reports a script that does not compile.
      () => null,
    );
  return compiler;
}

async function check(text: string): Promise<ScenarioResult> {
  const result = checkScenarioText(text);
  if (!mayHoldScripts(text) || boundsProblem(text)) return result;
  const compile = await luaCompiler();
  return compile ? withLuaSyntax(result, text, compile) : result;
}

// A dedicated worker: checks one scenario text per message, off the page's thread.
const scope = self as unknown as { onmessage: ((e: MessageEvent<CheckRequest>) => void) | null; postMessage(message: unknown): void };
scope.onmessage = (e) => void check(e.data.text).then((result) => scope.postMessage({ id: e.data.id, result }));
