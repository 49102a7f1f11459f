import { error, type Reply } from './reply';

/**
 * Redis's shared error replies, spelled exactly as redis-server 7.0 sends them. Keeping them
 * here stops small spelling drifts between command families.
 */
export const errors = {
  syntax: error('ERR syntax error'),
  wrongType: error('WRONGTYPE Operation against a key holding the wrong kind of value'),
  notInteger: error('ERR value is not an integer or out of range'),
  notFloat: error('ERR value is not a valid float'),
  overflow: error('ERR increment or decrement would overflow'),
  noScript: error('NOSCRIPT No matching script. Please use EVAL.'),
  noReplicas: error('NOREPLICAS Not enough good replicas to write.'),
  oom: error("OOM command not allowed when used memory > 'maxmemory'."),
  notAllowedFromScript: error('ERR This Redis command is not allowed from script'),
} satisfies Record<string, Reply>;

/** `ERR wrong number of arguments for '<name>' command`, name lower-case (`config|set`). */
export function wrongArity(fullName: string): Reply {
  return error(`ERR wrong number of arguments for '${fullName}' command`);
}

/** `ERR invalid expire time in '<command>' command`. */
export function invalidExpireTime(command: string): Reply {
  return error(`ERR invalid expire time in '${command}' command`);
}

/** Redis never lets a newline into an error line; it swaps CR and LF for spaces. */
export function sanitizeErrorText(text: string): string {
  return text.replace(/[\r\n]/g, ' ');
}

/** The unknown-command error, with Redis's 128-byte cap on the echoed arguments. */
export function unknownCommand(argv: string[]): Reply {
  let args = '';
  for (let i = 1; i < argv.length && args.length < 128; i++) {
    args += `'${(argv[i] as string).slice(0, 128 - args.length)}' `;
  }
  const name = (argv[0] ?? '').slice(0, 128);
  return error(sanitizeErrorText(`ERR unknown command '${name}', with args beginning with: ${args}`));
}

/** `ERR unknown subcommand 'x'. Try CONFIG HELP.` */
export function unknownSubcommand(sub: string, container: string): Reply {
  return error(
    sanitizeErrorText(`ERR unknown subcommand '${sub.slice(0, 128)}'. Try ${container.toUpperCase()} HELP.`),
  );
}
