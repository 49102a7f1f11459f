import type { CommandSpec } from './command';
import { stringCommands } from './commands/strings';
import { keyCommands } from './commands/keys';
import { expireCommands } from './commands/expire';
import { hashCommands } from './commands/hashes';
import { zsetCommands } from './commands/zsets';
import { zsetRemoveCommands } from './commands/zsetRemove';
import { timeCommands } from './commands/time';
import { listCommands } from './commands/lists';
import { scriptingCommands } from './commands/scripting';
import { serverCommands } from './commands/server';
import { error, type Reply } from './reply';
import { unknownCommand, unknownSubcommand, wrongArity } from './errors';

/** Every command the simulator accepts, by lower-case name. */
export const commandTable: ReadonlyMap<string, CommandSpec> = new Map(
  [
    ...stringCommands,
    ...keyCommands,
    ...expireCommands,
    ...hashCommands,
    ...zsetCommands,
    ...zsetRemoveCommands,
    ...listCommands,
    ...scriptingCommands,
    ...serverCommands,
    ...timeCommands,
  ].map((spec) => [spec.name, spec]),
);

/** Result of resolving argv to a runnable command: the spec, or the error Redis would send. */
export type Resolved = { ok: true; spec: CommandSpec } | { ok: false; reply: Reply; unknown: boolean };

/**
 * The success result of every spec, built once. Resolving runs for every command a client or
 * a script sends, and a fresh `{ ok: true, spec }` each time was pure garbage.
 */
const resolvedOf = new Map<CommandSpec, Resolved>();
for (const spec of commandTable.values()) {
  resolvedOf.set(spec, { ok: true, spec });
  for (const sub of Object.values(spec.subcommands ?? {})) resolvedOf.set(sub, { ok: true, spec: sub });
}

/**
 * Top-level commands under the spellings clients actually send: all upper case (what the lock
 * recipes and redis-cli users type) and all lower case. Looking these up directly skips a
 * toLowerCase per command, which allocates a string and makes the table hash it again; any
 * other spelling still goes through toLowerCase.
 */
const byExactName = new Map<string, CommandSpec>();
for (const [name, spec] of commandTable) {
  byExactName.set(name, spec);
  byExactName.set(name.toUpperCase(), spec);
}

/** Finds the command (and subcommand) for argv and checks its arity, like Redis's processCommand. */
export function resolveCommand(argv: string[]): Resolved {
  const name = argv[0] ?? '';
  const top = byExactName.get(name) ?? commandTable.get(name.toLowerCase());
  if (!top) return { ok: false, reply: unknownCommand(argv), unknown: true };
  let spec = top;
  if (top.subcommands && argv.length >= 2) {
    const sub = top.subcommands[(argv[1] as string).toLowerCase()];
    if (!sub) return { ok: false, reply: unknownSubcommand(argv[1] as string, top.name), unknown: true };
    spec = sub;
  }
  if ((spec.arity > 0 && argv.length !== spec.arity) || argv.length < -spec.arity) {
    return { ok: false, reply: wrongArity(spec.name), unknown: false };
  }
  if (!spec.run) return { ok: false, reply: error('ERR unknown command'), unknown: true };
  return resolvedOf.get(spec) as Resolved;
}

/**
 * True when argv cannot change the node: its spec is flagged `readonly`, or Redis refuses it
 * before running it (an unknown command, a wrong number of arguments) and answers an error.
 * @example changesNothing(['GET', 'lock']) // true; changesNothing(['SET', 'x', '1']) // false
 */
export function changesNothing(argv: string[]): boolean {
  const resolved = resolveCommand(argv);
  return !resolved.ok || resolved.spec.flags.readonly === true;
}
