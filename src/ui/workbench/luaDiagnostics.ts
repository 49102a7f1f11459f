import type { Diagnostic } from '../../scenario/diagnostic';
import type { ScenarioResult } from '../../scenario/parse';
import { WORKBENCH_FILE } from './checkScenarioText';
import { scriptSources, yamlPosition, type ScriptSource } from './scriptSources';

/** Compiles a Lua script without running it: Redis's `user_script:<n>: <message>`, or null when it compiles. */
export type LuaCompiler = (body: string) => string | null;

/** True when the text may hold a script, so texts without one never load the Lua VM. */
export function mayHoldScripts(text: string): boolean {
  return /\b(eval|eval_ro|script)\b/i.test(text);
}

/**
 * Each script's syntax errors, placed at the YAML line and column of the script's own line
 * (not "line 1 of user_script"), with what to change. Nothing of a script runs.
 */
export function luaSyntaxDiagnostics(text: string, compile: LuaCompiler): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const script of scriptSources(text)) {
    const message = compile(script.body);
    if (message !== null) out.push(syntaxDiagnostic(script, message));
  }
  return out;
}

/** The scenario check's result with the scripts' syntax errors added: a script that cannot compile makes the scenario invalid. */
export function withLuaSyntax(result: ScenarioResult, text: string, compile: LuaCompiler): ScenarioResult {
  const lua = luaSyntaxDiagnostics(text, compile);
  if (lua.length === 0) return result;
  const diagnostics = [...(result.ok ? [] : result.diagnostics), ...lua].sort((a, b) => a.line - b.line || a.col - b.col);
  return { ok: false, diagnostics };
}

function syntaxDiagnostic(script: ScriptSource, compileMessage: string): Diagnostic {
  const parsed = /^user_script:(\d+): (.*)$/s.exec(compileMessage);
  const message = parsed ? parsed[2]! : compileMessage;
  const near = /near '(.+)'$/.exec(message)?.[1];
  const lines = script.body.split('\n');
  let scriptLine = parsed ? Number(parsed[1]) : 1;
  // The end of the script is after its last written line, not on the YAML line below the block.
  if (near === '<eof>') while (scriptLine > 1 && !lines[scriptLine - 1]?.trim()) scriptLine--;
  const start = yamlPosition(script, scriptLine);
  // Point at the token the message names, when it is on that script line.
  const lineText = lines[scriptLine - 1] ?? '';
  const offset = near && near !== '<eof>' ? lineText.indexOf(near) : -1;
  return {
    file: WORKBENCH_FILE,
    line: start.line,
    col: start.col + Math.max(0, offset),
    message: `Lua syntax error (script line ${scriptLine}): ${message}`,
    hint: syntaxHint(message, near),
  };
}

const NOT_IN_51 = new Set(['/', '&', '|', '~', '<', '>', ':']);

function syntaxHint(message: string, near: string | undefined): string {
  if (/'end' expected/.test(message)) return 'close every if, for, while and function with end';
  if (near && NOT_IN_51.has(near)) return "Redis runs Lua 5.1: no //, &, |, ~, <<, >>, goto or <const> (use math.floor(a / b) and the bit library)";
  if (near === '<eof>') return 'the script ends too early: finish the last statement';
  if (/unfinished string/.test(message)) return 'close the string with the quote it opened with';
  return "fix the script's syntax; Redis runs Lua 5.1";
}
