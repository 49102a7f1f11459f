import { array, bulk, error, integer, ok, status, type Reply } from '../reply';
import { errors } from '../errors';
import type { CommandContext, CommandSpec } from '../command';
import { parseInt64, strtod } from '../numbers';
import { configGet, configSet } from '../config';
import { keySlot } from '../keySlot';

/** Server commands: PING, ECHO, PUBLISH, FLUSHALL, WAIT, CONFIG GET/SET, DEBUG SLEEP and SET-ACTIVE-EXPIRE, CLUSTER
 * KEYSLOT. */

function ping(ctx: CommandContext): Reply {
  if (ctx.argv.length > 2) return error("ERR wrong number of arguments for 'ping' command");
  return ctx.argv.length === 2 ? bulk(ctx.argv[1] as string) : status('PONG');
}

function flushall(ctx: CommandContext): Reply {
  const mode = ctx.argv[1]?.toLowerCase();
  if (ctx.argv.length > 2 || (ctx.argv.length === 2 && mode !== 'sync' && mode !== 'async')) return errors.syntax;
  ctx.node.flushAll();
  ctx.dirty();
  return ok;
}

function wait(ctx: CommandContext): Reply {
  const numReplicas = parseInt64(ctx.argv[1] as string);
  if (numReplicas === null) return errors.notInteger;
  const timeout = parseInt64(ctx.argv[2] as string);
  if (timeout === null) return error('ERR timeout is not an integer or out of range');
  if (timeout < 0n) return error('ERR timeout is negative');
  return ctx.node.wait(Number(numReplicas), Number(timeout));
}

function configGetCommand(ctx: CommandContext): Reply {
  return array(configGet(ctx.node.config, ctx.argv.slice(2)).map(bulk));
}

function configSetCommand(ctx: CommandContext): Reply {
  if (ctx.argv.length % 2 !== 0) return errors.syntax;
  const pairs: Array<[string, string]> = [];
  for (let j = 2; j < ctx.argv.length; j += 2) pairs.push([ctx.argv[j] as string, ctx.argv[j + 1] as string]);
  const problem = configSet(ctx.node.config, pairs);
  return problem === null ? ok : error(`ERR ${problem}`);
}

/**
 * DEBUG: SLEEP, which advances this node's virtual clock instead of blocking, and
 * SET-ACTIVE-EXPIRE, which turns the active-expiry cycle off (0) or on (anything atoi reads as
 * non-zero), so that only a command touching an expired key deletes it, and
 * SET-DISABLE-DENY-SCRIPTS, which lets scripts call commands such as DEBUG SLEEP (non-zero) or
 * refuses them again (0), as Redis's own tests do.
 */
function debug(ctx: CommandContext): Reply {
  const sub = ctx.argv[1] as string;
  if (sub.toLowerCase() === 'set-active-expire' && ctx.argv.length === 3) {
    ctx.node.debug.activeExpire = atoiNonZero(ctx.argv[2] as string);
    return ok;
  }
  if (sub.toLowerCase() === 'set-disable-deny-scripts' && ctx.argv.length === 3) {
    ctx.node.debug.denyScripts = !atoiNonZero(ctx.argv[2] as string);
    return ok;
  }
  if (sub.toLowerCase() === 'sleep' && ctx.argv.length === 3) {
    // Redis reads the delay with plain strtod, so "abc" sleeps 0 s and "1x" sleeps 1 s.
    const seconds = strtod(ctx.argv[2] as string).value;
    const micros = Math.trunc(seconds * 1_000_000);
    if (micros > 0) ctx.node.sleep(micros / 1000);
    return ok;
  }
  return error(`ERR unknown subcommand or wrong number of arguments for '${sub}'. Try DEBUG HELP.`);
}

/** Whether C's atoi reads `text` as a non-zero number (leading spaces and sign, then digits). */
function atoiNonZero(text: string): boolean {
  return /^\s*[+-]?0*[1-9]/.test(text);
}

function clusterKeyslot(ctx: CommandContext): Reply {
  if (!ctx.node.clusterEnabled) return error('ERR This instance has cluster support disabled');
  return integer(keySlot(ctx.argv[2] as string));
}

/** The server family's table entries. */
export const serverCommands: CommandSpec[] = [
  { name: 'ping', arity: -1, flags: { readonly: true }, run: ping },
  { name: 'echo', arity: 2, flags: { readonly: true }, run: (ctx) => bulk(ctx.argv[1] as string) },
  // Nobody subscribes in the simulator, so PUBLISH reaches zero clients.
  { name: 'publish', arity: 3, flags: {}, run: () => integer(0) },
  { name: 'flushall', arity: -1, flags: { write: true }, run: flushall },
  { name: 'wait', arity: 3, flags: { noscript: true }, run: wait },
  { name: 'debug', arity: -2, flags: { noscript: true }, run: debug },
  {
    name: 'config',
    arity: -2,
    flags: { noscript: true },
    subcommands: {
      get: { name: 'config|get', arity: -3, flags: { noscript: true, readonly: true }, run: configGetCommand },
      set: { name: 'config|set', arity: -4, flags: { noscript: true }, run: configSetCommand },
    },
  },
  {
    name: 'cluster',
    arity: -2,
    flags: {},
    subcommands: { keyslot: { name: 'cluster|keyslot', arity: 3, flags: { readonly: true }, run: clusterKeyslot } },
  },
];
