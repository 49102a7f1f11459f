import { formatMs } from '../../sim/time';

/**
 * An explicit step list: what a scenario can give a client instead of a recipe, so an
 * instructor can write any protocol (right or wrong) command by command. Placeholders in a
 * Redis step's arguments are filled in when the step runs:
 * `{value}` (this client's random lock value), `{token}` (the last fencing token it got, from
 * an acquiring script or a `fence` step),
 * `{key}` (its lock key), `{ttl}` (its ttl in ms) and `{id}` (its id).
 */

/**
 * What a Redis step means to the client that sends it. `fence`: its integer answer is the
 * fencing token the client's later writes carry, whether or not it holds the lock by then.
 */
export type StepMeaning = 'acquire' | 'release' | 'renew' | 'fence' | 'command';

/** What a client does when an acquiring step does not get the lock. */
export type IfBusy = 'retry' | 'skip' | 'stop';

export type ClientStep =
  | { do: 'redis'; argv: readonly string[]; node: string | null; as: StepMeaning; ifBusy: IfBusy }
  | { do: 'wait'; ms: number }
  | { do: 'read'; resource: string }
  | { do: 'write'; resource: string };

/**
 * The meaning of a command when the author did not say: `SET ... NX` and `SETNX` take the
 * lock, `DEL`/`UNLINK` let go of it, `PEXPIRE`/`EXPIRE` extend it, and a lone `INCR` draws a
 * fencing token (the counter of 003's lifecycle, `FENCE=$(redis-cli INCR fence:...)`). An
 * `EVAL` is read by what its script does to its first key: one that deletes it is a release
 * (the compare-and-delete), else one that sets its expiry a renewal. Anything else (a GET, an
 * `EVALSHA`, whose body is not in the step) is just a command; give `as:` to say otherwise.
 */
export function inferMeaning(argv: readonly string[]): StepMeaning {
  const name = (argv[0] ?? '').toUpperCase();
  if (name === 'EVAL' && Number(argv[2]) >= 1) {
    const calls = (command: string) =>
      new RegExp(`redis\\.p?call\\(\\s*['"]${command}['"]\\s*,\\s*KEYS\\[1\\]`, 'i').test(argv[1] ?? '');
    if (calls('del') || calls('unlink')) return 'release';
    if (calls('pexpire') || calls('expire')) return 'renew';
  }
  if (name === 'SETNX') return 'acquire';
  if (name === 'SET' && argv.slice(3).some((a) => a.toUpperCase() === 'NX')) return 'acquire';
  if (name === 'DEL' || name === 'UNLINK') return 'release';
  if (name === 'PEXPIRE' || name === 'EXPIRE') return 'renew';
  if (name === 'INCR') return 'fence';
  return 'command';
}

/** The key a command is about: the first key of a script, otherwise its first argument. */
export function keyOf(argv: readonly string[]): string | null {
  const name = (argv[0] ?? '').toUpperCase();
  if (name === 'EVAL' || name === 'EVALSHA') return Number(argv[2]) >= 1 ? (argv[3] ?? null) : null;
  return argv[1] ?? null;
}

/** The placeholders a step's arguments may use, and what each stands for now. */
export interface Placeholders {
  value: string;
  token: number | null;
  key: string;
  ttlMs: number;
  id: string;
}

/** Fills `{value}`, `{token}`, `{key}`, `{ttl}` and `{id}` into each argument. */
export function fillPlaceholders(argv: readonly string[], p: Placeholders): string[] {
  const table: Record<string, string> = {
    value: p.value,
    token: p.token === null ? '' : String(p.token),
    key: p.key,
    ttl: String(p.ttlMs),
    id: p.id,
  };
  return argv.map((arg) => arg.replace(/\{(value|token|key|ttl|id)\}/g, (_, name: string) => table[name]!));
}

/** One line for a step, as the trace's `step.start` shows it (before placeholders are filled). */
export function describeStep(step: ClientStep): string {
  switch (step.do) {
    case 'redis':
      return `${step.argv.join(' ')}${step.node === null ? '' : ` on ${step.node}`}`;
    case 'wait':
      return `wait ${formatMs(step.ms)}`;
    case 'read':
      return `read ${step.resource}`;
    case 'write':
      return `write ${step.resource}`;
  }
}
