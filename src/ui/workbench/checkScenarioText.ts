import type { Diagnostic } from '../../scenario/diagnostic';
import type { LuaCompiler } from '../../scenario/luaSyntax';
import { parseScenario, type ScenarioResult } from '../../scenario/parse';

/** The name the workbench's scenario goes by in its `file:line:col` messages. */
export const WORKBENCH_FILE = 'workbench.yaml';

/** Far more than any scenario needs (the longest lesson scenario is ~4 KB), and parsed in a few ms. */
export const MAX_SCENARIO_CHARS = 64_000;
/**
 * How deeply brackets or indentation may nest. The YAML parser recurses once per level and
 * overflows the stack near a few thousand, after ~200 ms of work on every keystroke; no scenario
 * nests past ten.
 */
export const MAX_NESTING = 64;

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
    return { ok: false, diagnostics: [{ file: WORKBENCH_FILE, line: 1, col: 1, message: `the scenario could not be checked: ${error instanceof Error ? error.message : String(error)}` }] };
  }
}

/** The first bound a text breaks (too long, nested too deep), or undefined: text past them is never parsed. */
export function boundsProblem(text: string): Diagnostic | undefined {
  if (text.length > MAX_SCENARIO_CHARS) {
    return { file: WORKBENCH_FILE, line: 1, col: 1, message: `the scenario is ${text.length.toLocaleString('en')} characters long; the workbench checks up to ${MAX_SCENARIO_CHARS.toLocaleString('en')}`, hint: 'a scenario is a page of YAML: remove what was pasted by mistake' };
  }
  let depth = 0;
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (ch === 10) {
      line++;
      lineStart = i + 1;
      // Indentation is nesting too: count it at the start of each line, two spaces a level.
      let indent = 0;
      while (text.charCodeAt(i + 1 + indent) === 32) indent++;
      if (indent / 2 > MAX_NESTING) return tooDeep(line, indent + 1);
    } else if (ch === 91 || ch === 123) {
      if (++depth > MAX_NESTING) return tooDeep(line, i - lineStart + 1);
    } else if (ch === 93 || ch === 125) {
      depth = Math.max(0, depth - 1);
    }
  }
  return undefined;
}

function tooDeep(line: number, col: number): Diagnostic {
  return { file: WORKBENCH_FILE, line, col, message: `the YAML nests more than ${MAX_NESTING} levels deep here`, hint: 'a scenario nests a few levels at most: check for unclosed [ or { and runaway indentation' };
}
