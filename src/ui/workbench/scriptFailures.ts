import type { Diagnostic } from '../../scenario/diagnostic';
import { STOPPED, type ScriptFailure } from '../../scenario/running/scriptFailures';
import { scriptSources, yamlPosition, type ScriptSource } from '../../scenario/text/scriptSources';
import { WORKBENCH_FILE } from './checkScenarioText';

/**
 * The run's script failures as diagnostics at their place in the current text: each goes to
 * the YAML line of the script line the engine named, in every script of the text that ran as
 * it (a script with placeholders matches whatever they were filled with). A failure whose
 * script has since been edited has no place any more and is left out.
 */
export function placeScriptFailures(text: string, failures: readonly ScriptFailure[]): Diagnostic[] {
  if (failures.length === 0) return [];
  const sources = scriptSources(text);
  const out: Diagnostic[] = [];
  for (const failure of failures) {
    for (const source of sources) {
      if (!ranAs(source, failure.body)) continue;
      const { line, col } = yamlPosition(source, failure.scriptLine ?? 1);
      const times = failure.count > 1 ? ` (${failure.count} times)` : '';
      out.push({
        file: WORKBENCH_FILE,
        line,
        col,
        message: `In the last run${times}: ${failure.message}`,
        hint: failure.hint,
        ...(STOPPED.has(failure.kind) ? {} : { severity: 'warning' as const }),
      });
    }
  }
  return out.sort((a, b) => a.line - b.line || a.col - b.col);
}

/**
 * True when `ran` is the script as written with its placeholders filled in. Each placeholder
 * matches any text; the literal parts are found left to right (linear, unlike a regular
 * expression built from a learner's text).
 */
function ranAs(source: ScriptSource, ran: string): boolean {
  if (source.body === ran) return true;
  const parts = source.body.split(/\{(?:value|token|key|ttl|id)\}/);
  if (parts.length === 1) return false;
  const first = parts[0]!;
  const last = parts[parts.length - 1]!;
  if (!ran.startsWith(first) || !ran.endsWith(last) || ran.length < first.length + last.length) return false;
  let at = first.length;
  for (const middle of parts.slice(1, -1)) {
    const found = ran.indexOf(middle, at);
    if (found === -1 || found + middle.length > ran.length - last.length) return false;
    at = found + middle.length;
  }
  return true;
}
