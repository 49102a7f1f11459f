import { parseMemoryBytes } from '../../redis/config';
import { BASELINE_MEMORY_BYTES } from '../../redis/inspect';

/**
 * What the console knows about a lock key on the node a command goes to, at the moment it runs.
 * `holder` is the label of the client whose token the key holds, or null when the console itself
 * set that value (the learner's own lock: deleting it is theirs to do).
 */
export interface LiveLease {
  holder: string | null;
}

/** The world as the console sees it when a command runs on one node. */
export interface ConsoleFacts {
  /** The node's label, as the console names it. */
  node: string;
  /** Every key the run's clients lock (a lease was granted on it somewhere in the run). */
  lockKeys: ReadonlySet<string>;
  /** The leases live on that node just before the command: lock key → who holds it. */
  leases: ReadonlyMap<string, LiveLease>;
}

/**
 * A short warning for a destructive console command, naming the risk, or null. The console
 * is not one of the run's clients and holds no client's token, so a command that removes or
 * replaces a lock a client holds takes that lock from under its holder; a lock taken without an
 * expiry outlives a holder that crashes. The command runs all the same: breaking things on
 * purpose is what the console is for, and the warning only makes sure it is on purpose.
 *
 * @example consoleWarning(['DEL', 'lock'], { node: 'r1', lockKeys: new Set(['lock']), leases: new Map([['lock', { holder: 'Barista A' }]]) })
 *   // → "DEL removes lock, the lock Barista A holds: …"
 */
export function consoleWarning(argv: readonly string[], facts: ConsoleFacts): string | null {
  const name = argv[0]?.toUpperCase() ?? '';
  const args = argv.slice(1);
  switch (name) {
    case 'DEL':
    case 'UNLINK':
    case 'GETDEL':
      return takesFromHolders(name, 'removes', heldByOthers(name === 'GETDEL' ? args.slice(0, 1) : args, facts));
    case 'EXPIRE':
    case 'PEXPIRE':
      // A TTL of zero or less deletes the key at once, like DEL.
      return args.length >= 2 && Number(args[1]) <= 0
        ? takesFromHolders(name, `with ${args[1]} deletes`, heldByOthers(args.slice(0, 1), facts))
        : null;
    case 'FLUSHALL':
    case 'FLUSHDB': {
      const held = [...facts.leases]
        .filter(([, l]) => l.holder !== null)
        .map(([key, l]) => `${key} (held by ${l.holder})`);
      return `${name} deletes every key on ${facts.node}${held.length ? `, including ${held.join(', ')}` : ''}: any client that thinks it holds a lock there no longer does, and the next client to ask gets it.`;
    }
    case 'SETNX':
      return noExpiry('SETNX', args[0]);
    case 'SET':
      return setWarning(args, facts);
    case 'CONFIG':
      return args[0]?.toUpperCase() === 'SET' ? configSetWarning(args.slice(1), facts.node) : null;
    case 'PERSIST': {
      const key = args[0];
      return key !== undefined && (facts.lockKeys.has(key) || facts.leases.has(key))
        ? `PERSIST removes the expiry of the lock ${key}: if its holder crashes or hangs, the lock is never released and every other client waits forever.`
        : null;
    }
    default:
      return null;
  }
}

/** The keys among `keys` whose lease on the node belongs to a client, with that client. */
function heldByOthers(keys: readonly string[], facts: ConsoleFacts): { key: string; holder: string }[] {
  const out: { key: string; holder: string }[] = [];
  for (const key of new Set(keys)) {
    const holder = facts.leases.get(key)?.holder;
    if (holder) out.push({ key, holder });
  }
  return out;
}

function takesFromHolders(
  command: string,
  verb: string,
  held: readonly { key: string; holder: string }[],
): string | null {
  if (held.length === 0) return null;
  const what = held.map((h) => `${h.key}, the lock ${h.holder} holds`).join('; ');
  const holders = [...new Set(held.map((h) => h.holder))].join(' and ');
  return `${command} ${verb} ${what}: the console does not hold it, so another client can take it while ${holders} still believes it holds it (a release should first check that the value is its own token).`;
}

function noExpiry(command: string, key: string | undefined): string {
  return `${command} takes ${key ?? 'the key'} with no expiry: if the holder crashes or hangs, the lock is never released. Give it a TTL (SET ${key ?? 'key'} value NX PX 10000).`;
}

/**
 * CONFIG SET of the memory cap or the eviction policy: either can take every lock on the node.
 * Under the default policy (noeviction) a node over its cap refuses every write, a lock's SET
 * included; under an eviction policy it deletes keys to make room, and a lock is a key like any
 * other (the volatile-* policies pick among keys with a TTL, which every lease has).
 */
function configSetWarning(pairs: readonly string[], node: string): string | null {
  const warnings: string[] = [];
  for (let i = 0; i + 1 < pairs.length; i += 2) {
    const [name, value] = [pairs[i]!.toLowerCase(), pairs[i + 1]!];
    if (name === 'maxmemory') {
      const bytes = parseMemoryBytes(value);
      if (!bytes) continue;
      const size = `${bytes.toLocaleString('en-US')} byte${bytes === 1 ? '' : 's'}`;
      const tiny = bytes < BASELINE_MEMORY_BYTES ? ' (less than an empty Redis already uses)' : '';
      warnings.push(
        `maxmemory ${value} caps ${node} at ${size}${tiny}: once it is over, the default policy (noeviction) refuses every write with OOM, a lock's SET included, and an eviction policy deletes keys to make room, locks included.`,
      );
    } else if (name === 'maxmemory-policy' && value.toLowerCase() !== 'noeviction') {
      warnings.push(
        `maxmemory-policy ${value} lets ${node} delete keys when it is over maxmemory, and a lock is a key like any other: its holder would go on believing it holds it.`,
      );
    }
  }
  return warnings.length ? `CONFIG SET ${warnings.join(' And ')}` : null;
}

const EXPIRY_OPTIONS = new Set(['EX', 'PX', 'EXAT', 'PXAT', 'KEEPTTL']);

function setWarning(args: readonly string[], facts: ConsoleFacts): string | null {
  const [key, , ...options] = args;
  if (key === undefined) return null;
  const words = new Set(options.map((o) => o.toUpperCase()));
  const expires = [...words].some((w) => EXPIRY_OPTIONS.has(w));
  if (words.has('NX')) return expires ? null : noExpiry('SET … NX', key);
  const holder = facts.leases.get(key)?.holder;
  if (holder)
    return `SET overwrites ${key}, the lock ${holder} holds: ${holder} still believes it holds it, and its token no longer matches, so its own release will fail.`;
  return null;
}
