import { didYouMean, type Diagnostic, type SourceOrigin } from '../diagnostic';
import { scriptSources, yamlPosition, type ScriptSource } from './scriptSources';

/** Compiles a Lua script without running it: Redis's `user_script:<n>: <message>`, or null when it compiles. */
export type LuaCompiler = (body: string) => string | null;

/** True when the text may hold a script, so texts without one never load the Lua VM. */
export function mayHoldScripts(text: string): boolean {
  return /\b(eval|eval_ro|script)\b/i.test(text);
}

/**
 * A compiler that compiles each body once (the last few hundred kept): an editor checks on every
 * keystroke, a build checks a lesson's scenario again for each of its views, and a keystroke
 * rarely touches a script.
 */
export function rememberingCompiler(compileError: LuaCompiler): LuaCompiler {
  const known = new Map<string, string | null>();
  return (body) => {
    const cached = known.get(body);
    if (cached !== undefined) return cached;
    const message = compileError(body);
    if (known.size >= 500) known.delete(known.keys().next().value!);
    known.set(body, message);
    return message;
  };
}

/**
 * Each script's syntax errors, placed at the file line and column of the script's own line
 * (not "line 1 of user_script"), with what to change. Nothing of a script runs. `origin` is
 * where the YAML text starts in its file: a lesson's scenario block on line 40 reports its
 * script errors on lines 40 and after.
 */
export function luaSyntaxDiagnostics(text: string, compile: LuaCompiler, origin: SourceOrigin): Diagnostic[] {
  if (!mayHoldScripts(text)) return [];
  const out: Diagnostic[] = [];
  for (const script of scriptSources(text)) {
    const message = compile(script.body);
    if (message !== null) out.push(syntaxDiagnostic(script, message, origin));
  }
  return out;
}

function syntaxDiagnostic(script: ScriptSource, compileMessage: string, origin: SourceOrigin): Diagnostic {
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
    file: origin.file,
    line: origin.line + start.line - 1,
    col: start.col + Math.max(0, offset),
    message: `Lua syntax error (script line ${scriptLine}): ${message}`,
    hint: syntaxHint(message, near),
  };
}

const NOT_IN_51 = new Set(['/', '&', '|', '~', '<', '>', ':']);

/** Lua 5.1's words that open or continue a block: a misspelling of one is the likeliest typo behind a syntax error. */
const BLOCK_WORDS = [
  'if',
  'then',
  'else',
  'elseif',
  'end',
  'for',
  'while',
  'do',
  'repeat',
  'until',
  'function',
  'local',
  'return',
];

function syntaxHint(message: string, near: string | undefined): string {
  // A typo keeps its first letter; a short name (`x`) is a variable, not a misspelled word.
  const word =
    near && /^[a-z]\w{2,}$/.test(near) && !BLOCK_WORDS.includes(near) ? didYouMean(near, BLOCK_WORDS) : undefined;
  if (word?.[0] === near![0]) return `did you mean '${word}'?`;
  if (/'end' expected/.test(message)) return 'close every if, for, while and function with end';
  if (near && NOT_IN_51.has(near))
    return 'Redis runs Lua 5.1: no //, &, |, ~, <<, >>, goto or <const> (use math.floor(a / b) and the bit library)';
  if (near === '<eof>') return 'the script ends too early: finish the last statement';
  if (/unfinished string/.test(message)) return 'close the string with the quote it opened with';
  return "fix the script's syntax; Redis runs Lua 5.1";
}
