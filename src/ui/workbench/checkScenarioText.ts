import type { Diagnostic } from '../../scenario/diagnostic';
import { yamlBoundsProblem } from '../../scenario/text/inputBounds';
import type { LuaCompiler } from '../../scenario/text/luaSyntax';
import { parseScenario, type ScenarioResult } from '../../scenario/text/parse';

/** The name the workbench's scenario goes by in its `file:line:col` messages. */
export const WORKBENCH_FILE = 'workbench.yaml';

/**
 * Checks the workbench's text as `lessons:check` checks a sidecar scenario, after two cheap
 * bounds that keep hostile text (a pasted megabyte, ten thousand `[`) from costing the page
 * more than a scan. Alias bombs are bounded by the parser itself (yamlSource.ts).
 */
export function checkScenarioText(text: string, compileLua?: LuaCompiler): ScenarioResult {
  const refusal = boundsProblem(text);
  if (refusal) return { ok: false, diagnostics: [refusal] };
  try {
    return parseScenario(text, { file: WORKBENCH_FILE, line: 1 }, compileLua ? { compileLua } : {});
  } catch (error) {
    // The checks are meant never to throw; if one does, the author still gets a message, not a dead editor.
    return {
      ok: false,
      diagnostics: [
        {
          file: WORKBENCH_FILE,
          line: 1,
          col: 1,
          message: `the scenario could not be checked: ${error instanceof Error ? error.message : String(error)}`,
        },
      ],
    };
  }
}

/** The first bound the workbench's text breaks (too long, nested too deep), or undefined: text past them is never parsed. */
export function boundsProblem(text: string): Diagnostic | undefined {
  return yamlBoundsProblem(text, { file: WORKBENCH_FILE, line: 1 }, 'the scenario');
}
