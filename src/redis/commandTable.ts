import type { CommandSpec } from './command';
import { stringCommands } from './commands/strings';
import { keyCommands } from './commands/keys';
import { expireCommands } from './commands/expire';
import { hashCommands } from './commands/hashes';
import { zsetCommands } from './commands/zsets';
import { listCommands } from './commands/lists';
import { scriptingCommands } from './commands/scripting';
import { serverCommands } from './commands/server';
import { error, type Reply } from './reply';
import { unknownCommand, unknownSubcommand, wrongArity } from './errors';

/** Every command the simulator accepts, by lower-case name. */
export const commandTable: ReadonlyMap<string, CommandSpec> = new Map(
  [
    ...stringCommands, ...keyCommands, ...expireCommands, ...hashCommands,
    ...zsetCommands, ...listCommands, ...scriptingCommands, ...serverCommands,
  ].map((spec) => [spec.name, spec]),
);

/** Result of resolving argv to a runnable command: the spec, or the error Redis would send. */
export type Resolved = { ok: true; spec: CommandSpec } | { ok: false; reply: Reply; unknown: boolean };

/** Finds the command (and subcommand) for argv and checks its arity, like Redis's processCommand. */
export function resolveCommand(argv: string[]): Resolved {
  const top = commandTable.get((argv[0] ?? '').toLowerCase());
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
  return { ok: true, spec };
}

/** Lower-case names of the supported top-level commands, for docs and the playground. */
export function supportedCommands(): string[] {
  return [...commandTable.keys()].sort();
}
