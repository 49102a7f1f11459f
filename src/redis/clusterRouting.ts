import { error, type Reply } from './reply';
import { keySlot } from './keySlot';

/**
 * Cluster routing for one node: which keys a command touches, whether they share a slot
 * (`CROSSSLOT`), whether the node's cluster is up (`CLUSTERDOWN The cluster is down`), and
 * whether this node serves that slot (`MOVED <slot> <host:port>`, or `CLUSTERDOWN Hash slot not
 * served` when nobody does). Redis checks this before anything else about the command.
 */
export interface SlotOwnership {
  /** Who serves `slot`: this node ('self'), another node's address (`host:port`), or nobody. */
  ownerOf(slot: number): 'self' | string | null;
  /** Whether this node's `cluster_state` is ok (false: it refuses every key command). */
  ok(): boolean;
}

const ALL_ARGS = new Set(['del', 'unlink', 'exists', 'mget']);
const NO_KEYS = new Set([
  'ping',
  'echo',
  'publish',
  'flushall',
  'wait',
  'debug',
  'config',
  'cluster',
  'script',
  'dbsize',
  'keys',
  'scan',
]);

/** The keys of a command as Redis's key specs find them (the commands the simulator supports). */
export function commandKeys(argv: readonly string[]): string[] {
  const name = (argv[0] ?? '').toLowerCase();
  if (NO_KEYS.has(name)) return [];
  if (ALL_ARGS.has(name)) return argv.slice(1);
  if (name === 'mset') return argv.slice(1).filter((_, i) => i % 2 === 0);
  if (name === 'eval' || name === 'evalsha') {
    const count = Number(argv[2]);
    return Number.isInteger(count) && count > 0 ? argv.slice(3, 3 + count) : [];
  }
  return argv.length > 1 ? [argv[1]!] : [];
}

/**
 * The redirection or error Redis answers instead of running the command, or null to run it
 * here. Redis's order (getNodeByQuery): the first key's slot must be served, the other keys must
 * share it, the cluster must be up, and only then is the slot's owner asked for.
 */
export function clusterRedirect(argv: readonly string[], ownership: SlotOwnership): Reply | null {
  const keys = commandKeys(argv);
  if (keys.length === 0) return null;
  const slot = keySlot(keys[0]!);
  const owner = ownership.ownerOf(slot);
  if (owner === null) return error('CLUSTERDOWN Hash slot not served');
  if (keys.some((key) => keySlot(key) !== slot)) return error("CROSSSLOT Keys in request don't hash to the same slot");
  if (!ownership.ok()) return error('CLUSTERDOWN The cluster is down');
  return owner === 'self' ? null : error(`MOVED ${slot} ${owner}`);
}
