import { defaultLuaLimits } from '../../redis/lua/luaLimits';
import { sha1Hex } from '../../redis/sha1';
import type { TraceEvent } from '../../sim/traceEvents';

/** How a script of the run failed. */
export type ScriptFailureKind = 'budget' | 'pattern' | 'memory' | 'string-size' | 'stack' | 'compile' | 'error';

/** One script that failed in a run (however many times), as the workbench explains it. */
export interface ScriptFailure {
  kind: ScriptFailureKind;
  /** The script as it ran (placeholders such as `{value}` filled in). */
  body: string;
  /** The script's line the engine named (where it was when stopped), or null when it cannot tell. */
  scriptLine: number | null;
  /** What happened, in a sentence. */
  message: string;
  /** What to change. */
  hint: string;
  /** How many times it failed this way, and who sent it. */
  count: number;
  senders: string[];
}

const MILLION = 1_000_000;
const PATTERN_CALL = /\b(find|match|gmatch|gsub)\s*\(/;

/**
 * The run's failed scripts, from its trace: each EVAL (or EVALSHA of a script the run loaded)
 * answered with a script error, grouped by script, line and kind. The engine's own texts say
 * what stopped a script and where: the instruction budget (`Script killed … on
 * @user_script:<line>`), the memory cap (`not enough memory, on @user_script:<line>.`),
 * `stack overflow`, `string too large`.
 */
export function scriptFailures(events: readonly TraceEvent[]): ScriptFailure[] {
  // sha → body of every script the run sent, so an EVALSHA's failure can name its script.
  const bodies = new Map<string, string>();
  const known = new Set<string>();
  const found = new Map<string, ScriptFailure>();
  for (const e of events) {
    if (e.kind !== 'redis.command') continue;
    const [name, first] = e.data.argv;
    const command = name?.toUpperCase();
    const body =
      command === 'EVAL' || command === 'EVAL_RO'
        ? first
        : command === 'EVALSHA' || command === 'EVALSHA_RO'
          ? bodies.get(first?.toLowerCase() ?? '')
          : command === 'SCRIPT'
            ? e.data.argv[2]
            : undefined;
    if (body === undefined) continue;
    if (!known.has(body)) {
      known.add(body);
      bodies.set(sha1Hex(body), body);
    }
    if (command === 'SCRIPT' || !e.data.reply.startsWith('(error) ')) continue;
    const failure = explain(body, e.data.reply.slice('(error) '.length));
    const key = `${failure.kind}|${failure.scriptLine}|${body}`;
    const seen = found.get(key);
    if (seen) {
      seen.count++;
      if (!seen.senders.includes(e.data.from)) seen.senders.push(e.data.from);
    } else {
      found.set(key, { ...failure, count: 1, senders: [e.data.from] });
    }
  }
  return [...found.values()];
}

function explain(body: string, error: string): Omit<ScriptFailure, 'count' | 'senders'> {
  const located = /@user_script:(\d+)\.$/.exec(error) ?? /user_script:(\d+):/.exec(error);
  const scriptLine = located ? Number(located[1]) : null;
  const at = scriptLine === null ? '' : ` at script line ${scriptLine}`;
  const budget = `${defaultLuaLimits.instructionBudget / MILLION} million`;
  if (/^ERR Script killed by user with SCRIPT KILL/.test(error)) {
    const lineText = scriptLine === null ? '' : (body.split('\n')[scriptLine - 1] ?? '');
    if (PATTERN_CALL.test(lineText)) {
      return {
        kind: 'pattern',
        body,
        scriptLine,
        message: `This script's pattern match ran past the budget of ${budget} instructions and was stopped${at}: the pattern backtracks.`,
        hint: 'several .- or .* in one pattern try every way to split the text; anchor it (^…$), make each part more specific, or search for plain text with string.find(s, text, 1, true)',
      };
    }
    return {
      kind: 'budget',
      body,
      scriptLine,
      message: `This script ran past the budget of ${budget} instructions and was stopped${at}, where it was running: a loop that never ends?`,
      hint: 'give every loop an exit it reaches (a counter, or a condition the loop changes); a lock script needs a few hundred instructions',
    };
  }
  if (/not enough memory/.test(error)) {
    const where = scriptLine === null ? ' (the engine cannot tell at which line)' : at;
    return {
      kind: 'memory',
      body,
      scriptLine,
      message: `This script used more than the ${defaultLuaLimits.memoryLimitBytes / 1024 / 1024} MiB of memory a script may have and was stopped${where}.`,
      hint: 'look for a string doubled in a loop or a table filled without end: build only what the reply needs',
    };
  }
  if (/string (too large|length overflow)/.test(error)) {
    return {
      kind: 'string-size',
      body,
      scriptLine,
      message: `This script tried to build a string too large for Lua${at}.`,
      hint: 'string.rep or .. with a huge count: build only what the reply needs',
    };
  }
  if (/stack overflow/.test(error)) {
    return {
      kind: 'stack',
      body,
      scriptLine,
      message: `This script recursed too deeply and overflowed the Lua stack${at}.`,
      hint: 'give the recursive function a case that returns without calling itself, or write it as a loop',
    };
  }
  const compile = /^ERR Error compiling script \(new function\): user_script:\d+: (.*)$/.exec(error);
  if (compile)
    return {
      kind: 'compile',
      body,
      scriptLine,
      message: `This script does not compile: ${compile[1]}.`,
      hint: "fix the script's syntax; Redis runs Lua 5.1",
    };
  const text = error.replace(/ script: [0-9a-f]{40}, on @user_script:\d+\.$/, '');
  return {
    kind: 'error',
    body,
    scriptLine,
    message: `This script failed${at}: ${text}`,
    hint: 'Redis sends this error to the client; check the command at that line, or catch it with redis.pcall',
  };
}

/** The kinds that stopped a script by force (as opposed to an error the script raised or met). */
export const STOPPED: ReadonlySet<ScriptFailureKind> = new Set([
  'budget',
  'pattern',
  'memory',
  'string-size',
  'stack',
  'compile',
]);
