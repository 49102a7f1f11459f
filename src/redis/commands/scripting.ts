import { array, bulk, error, integer, ok, type Reply } from '../reply';
import { errors } from '../errors';
import type { CommandContext, CommandSpec } from '../command';
import { parseInt64 } from '../numbers';
import { sha1Hex } from '../sha1';
import { parseShebang } from '../scriptFlags';

/**
 * EVAL, EVALSHA and SCRIPT. The command table owns argument checks, SHA1s, the script cache
 * and NOSCRIPT; running a body is the ScriptEngine's job (see ../scriptEngine.ts). Like Redis
 * 7.0, EVAL caches the body so a later EVALSHA finds it.
 */

const TOO_MANY_KEYS = error("ERR Number of keys can't be greater than number of args");
const NEGATIVE_KEYS = error("ERR Number of keys can't be negative");

/**
 * EVAL's and EVALSHA's key count, checked in Redis's order: the count, or the error reply.
 * Parsed once per call, as a number: it runs for every script a client sends.
 */
function keyCount(argv: string[]): number | Reply {
  const text = argv[2] as string;
  const available = argv.length - 3;
  // One digit is by far the usual count (lock scripts send 1 or 2): read it without parsing.
  if (text.length === 1 && text >= '0' && text <= '9') {
    const numKeys = text.charCodeAt(0) - 0x30;
    return numKeys > available ? TOO_MANY_KEYS : numKeys;
  }
  const numKeys = parseInt64(text);
  if (numKeys === null) return errors.notInteger;
  if (numKeys > available) return TOO_MANY_KEYS;
  if (numKeys < 0n) return NEGATIVE_KEYS;
  return Number(numKeys);
}

/** Runs a script body with argv[3..] split into `numKeys` keys and the rest as arguments. */
function runWithKeys(ctx: CommandContext, body: string, sha: string, numKeys: number): Reply {
  const keys = ctx.argv.slice(3, 3 + numKeys);
  const args = ctx.argv.slice(3 + numKeys);
  return ctx.node.runScript(body, sha, keys, args);
}

/**
 * SHA1s of recent bodies. Clients send the same few scripts over and over, and hashing a body
 * cost more than running it; a bounded memo keeps EVAL's id computation off the hot path.
 */
const shaOfBody = new Map<string, string>();
const SHA_MEMO_MAX = 256;

function bodySha(body: string): string {
  let sha = shaOfBody.get(body);
  if (sha === undefined) {
    if (shaOfBody.size >= SHA_MEMO_MAX) shaOfBody.clear();
    sha = sha1Hex(body);
    shaOfBody.set(body, sha);
  }
  return sha;
}

function evalCommand(ctx: CommandContext): Reply {
  const body = ctx.argv[1] as string;
  const sha = bodySha(body);
  const numKeys = keyCount(ctx.argv);
  if (typeof numKeys !== 'number') return numKeys;
  // Redis validates the key count before it compiles and caches the body.
  ctx.node.scriptCache.set(sha, body);
  return runWithKeys(ctx, body, sha, numKeys);
}

function evalsha(ctx: CommandContext): Reply {
  const given = ctx.argv[1] as string;
  // Redis answers NOSCRIPT for a wrong-length id before it even parses the key count.
  if (given.length !== 40) return errors.noScript;
  const sha = given.toLowerCase();
  const numKeys = keyCount(ctx.argv);
  if (typeof numKeys !== 'number') return numKeys;
  const body = ctx.node.scriptCache.get(sha);
  if (body === undefined) return errors.noScript;
  return runWithKeys(ctx, body, sha, numKeys);
}

function scriptLoad(ctx: CommandContext): Reply {
  const body = ctx.argv[2] as string;
  const sha = sha1Hex(body);
  const shebang = parseShebang(body);
  if ('error' in shebang) return error(`ERR ${shebang.error}`);
  const engine = ctx.node.scripts as { check?: (body: string) => Reply | null } | undefined;
  // An engine may offer `check` to report compile errors at load time, as Redis does.
  const problem = engine?.check?.(body.slice(shebang.lineLength)) ?? null;
  if (problem) return problem;
  ctx.node.scriptCache.set(sha, body);
  return bulk(sha);
}

function scriptExists(ctx: CommandContext): Reply {
  return array(ctx.argv.slice(2).map((sha) => integer(ctx.node.scriptCache.has(sha.toLowerCase()) ? 1 : 0)));
}

function scriptFlush(ctx: CommandContext): Reply {
  const mode = ctx.argv[2]?.toLowerCase();
  if (ctx.argv.length > 3 || (ctx.argv.length === 3 && mode !== 'sync' && mode !== 'async')) {
    return error('ERR SCRIPT FLUSH only support SYNC|ASYNC option');
  }
  ctx.node.scriptCache.clear();
  return ok;
}

/** Scripts run to completion inside one simulated instant, so there is never one to kill. */
function scriptKill(): Reply {
  return error('NOTBUSY No scripts in execution right now.');
}

const NOSCRIPT = { noscript: true };

/** The scripting family's table entries. */
export const scriptingCommands: CommandSpec[] = [
  { name: 'eval', arity: -3, flags: NOSCRIPT, run: evalCommand },
  { name: 'evalsha', arity: -3, flags: NOSCRIPT, run: evalsha },
  {
    name: 'script',
    arity: -2,
    flags: NOSCRIPT,
    subcommands: {
      load: { name: 'script|load', arity: 3, flags: NOSCRIPT, run: scriptLoad },
      exists: { name: 'script|exists', arity: -3, flags: NOSCRIPT, run: scriptExists },
      flush: { name: 'script|flush', arity: -2, flags: NOSCRIPT, run: scriptFlush },
      kill: { name: 'script|kill', arity: 2, flags: NOSCRIPT, run: scriptKill },
    },
  },
];
