import type { TraceEvent } from '../sim/traceEvents';
import { formatMs } from '../sim/time';

/** Maps an actor id to the name a learner sees ("A" -> "Barista A"). */
export type LabelOf = (actorId: string) => string;

/**
 * One plain sentence for an event, the way the event list and screen readers say it.
 * @example describeEvent(write, label) // "Espresso machine rejected Barista A's write: stale token 1 < 2"
 */
export function describeEvent(e: TraceEvent, labelOf: LabelOf): string {
  const who = labelOf(e.actor);
  switch (e.kind) {
    case 'run.start':
      return `The run of “${e.data.scenario}” started (seed ${e.data.seed}).`;
    case 'run.end':
      return `The run ended (${e.data.reason}).`;
    case 'action.apply':
      return `${e.data.source === 'learner' ? 'You' : 'The script'}: ${e.data.detail}.`;
    case 'process.pause':
      return e.data.forMs === null ? `${who} paused.` : `${who} paused for ${formatMs(e.data.forMs)}.`;
    case 'process.resume':
      return `${who} resumed, unaware time passed.`;
    case 'process.crash':
      return `${who} crashed.`;
    case 'process.restart':
      return `${who} restarted.`;
    case 'clock.jump':
      return `${who}'s clock jumped ${e.data.byMs >= 0 ? 'forward' : 'back'} ${formatMs(Math.abs(e.data.byMs))}.`;
    case 'actor.state':
      return `${who} is now ${e.data.state}.`;
    case 'net.send':
      return `${who} sent “${e.data.label}” to ${labelOf(e.data.to)} (message ${e.data.msg}).`;
    case 'net.deliver':
      return `${who} received “${e.data.label}” from ${labelOf(e.data.from)} (message ${e.data.msg}).`;
    case 'net.drop':
      return `The network dropped “${e.data.label}” to ${labelOf(e.data.to)} (${e.data.reason}).`;
    case 'redis.command':
      return `${who} ran ${e.data.argv.join(' ')} for ${labelOf(e.data.from)} and replied ${e.data.reply}.`;
    case 'lease.granted':
      return `${who} now holds “${e.data.key}” for ${labelOf(e.data.owner)}${e.data.expiresAtMs === null ? ' with no expiry' : ` until ${formatMs(e.data.expiresAtMs)}`}.`;
    case 'lease.ended':
      return `${who}: ${labelOf(e.data.owner)}'s lease on “${e.data.key}” ${leaseEndWords[e.data.reason]}.`;
    case 'lock.request':
      return `${who} asks for the lock “${e.data.key}”.`;
    case 'lock.acquired':
      return `${who} believes it holds “${e.data.key}”${e.data.token === null ? '' : ` with fencing token ${e.data.token}`} ${heldFor(e.data.ttlMs, e.data.validityMs)}.`;
    case 'lock.busy':
      return e.data.refusal === undefined
        ? `${who} found “${e.data.key}” taken.`
        : `${who}'s client library refused “${e.data.key}” although Redis granted it: ${e.data.refusal}.`;
    case 'lock.released':
      return e.data.deleted
        ? `${who} released “${e.data.key}”.`
        : `${who} tried to release “${e.data.key}”, but Redis no longer had its key.`;
    case 'resource.request':
      return `${who} sent a write to ${labelOf(e.data.resource)}${e.data.token === null ? ' without a token' : ` with token ${e.data.token}`}.`;
    case 'net.partition':
      return `The network split into ${e.data.groups.map((g) => g.map(labelOf).join(' + ')).join(e.data.oneWay ? ' ↛ ' : ' | ')}.`;
    case 'net.heal':
      return 'The network healed: every node can reach every other again.';
    case 'request.timeout':
      return `${who} gave up waiting for an answer to “${e.data.label}” from ${labelOf(e.data.to)}.`;
    case 'request.late':
      return `${who} got a late answer to “${e.data.label}” from ${labelOf(e.data.from)}: it did happen.`;
    case 'lock.renewed':
      return `${who} extended its lease on “${e.data.key}” to ${formatMs(e.data.ttlMs)}.`;
    case 'lock.lost':
      return `${who} stopped believing it holds “${e.data.key}” (${e.data.reason}).`;
    case 'lock.failed':
      return e.data.error === undefined
        ? `${who} gave up on “${e.data.key}” after ${e.data.attempts} attempts.`
        : `${who} stopped trying to take “${e.data.key}”: Redis answered ${e.data.error}.`;
    case 'resource.read':
      return `${who} answered ${labelOf(e.data.from)}'s read: “${e.data.value}” (version ${e.data.version}).`;
    case 'resource.write':
      return e.data.accepted
        ? `${who} accepted ${labelOf(e.data.from)}'s write${e.data.token === null ? '' : ` (token ${e.data.token})`}.`
        : `${who} rejected ${labelOf(e.data.from)}'s write: ${e.data.reason ?? 'refused'}.`;
  }
  return describeTopologyEvent(e as unknown as { kind: string; actor: string; data: Record<string, unknown> }, labelOf);
}

/**
 * Sentences for the Redis topology's events (replication, Sentinel, failover), read loosely so
 * they work whichever of them the trace vocabulary has; any other kind still gets a readable line.
 */
function describeTopologyEvent(
  e: { kind: string; actor: string; data: Record<string, unknown> },
  labelOf: LabelOf,
): string {
  const who = labelOf(e.actor);
  const d = e.data;
  const name = (v: unknown) => labelOf(String(v));
  switch (e.kind) {
    case 'redis.role':
      return d.role === 'primary'
        ? `${who} is now a primary (${String(d.reason)}).`
        : `${who} now replicates ${name(d.of)} (${String(d.reason)}).`;
    case 'redis.replicate':
      return `${who} applied the replication stream from ${name(d.from)} up to offset ${String(d.offset)}.`;
    case 'redis.sync':
      return `${who} finished a full sync from ${name(d.from)} at offset ${String(d.offset)} (${String(d.keys)} keys).`;
    case 'redis.wait':
      return `${who} blocks on WAIT for ${String(d.numReplicas)} replicas.`;
    case 'redis.recover':
      return `${who} reloaded its data from disk (${String(d.keys)} keys).`;
    case 'process.power-loss':
      return `${who} lost power: only what was synced to disk survives.`;
    case 'sentinel.sdown':
      return d.down ? `${who} thinks ${name(d.node)} is down (subjectively).` : `${who} sees ${name(d.node)} again.`;
    case 'sentinel.odown':
      return d.down
        ? `${who}: ${String(d.votes)} of the needed ${String(d.quorum)} sentinels agree ${name(d.primary)} is down (objectively).`
        : `${who} no longer thinks ${name(d.primary)} is down.`;
    case 'sentinel.vote':
      return `${who} votes for ${name(d.leader)} to lead the failover (epoch ${String(d.epoch)}).`;
    case 'sentinel.elected':
      return `${who} was elected to lead the failover with ${String(d.votes)} votes.`;
    case 'sentinel.switch':
      return `${who} now points clients at the new primary.`;
    case 'failover.start':
      return `${who} starts failing over ${name(d.primary)}${d.manual ? ' (asked by hand)' : ''}.`;
    case 'failover.promote':
      return `${who} promoted ${name(d.to)} to primary in place of ${name(d.from)}.`;
    case 'failover.abort':
      return `${who} gave up the failover: ${String(d.reason)}.`;
    default:
      return `${who}: ${e.kind}.`;
  }
}

const leaseEndWords: Record<string, string> = {
  expired: 'expired',
  deleted: 'was deleted',
  overwritten: 'was overwritten',
  lost: 'was lost',
  evicted: 'was evicted',
};

/** "17.002 s – <sentence>": an event as one line of the event list. */
export function describeEventLine(e: TraceEvent, labelOf: LabelOf): string {
  return `${formatMs(e.at)} – ${describeEvent(e, labelOf)}`;
}

/** Fields the sentence already says, or that mean nothing to a learner, per kind (all kinds: `actors`). */
const SAID: Record<string, readonly string[]> = {
  'net.send': ['to', 'label'],
  'net.deliver': ['from', 'label'],
  'net.drop': ['to', 'label', 'reason'],
  'redis.command': ['from'],
  'lease.granted': ['key', 'owner'],
  'lease.ended': ['key', 'owner', 'reason'],
  'lock.request': ['key'],
  'lock.acquired': ['key', 'token', 'ttlMs', 'validityMs'],
  'lock.busy': ['key'],
  'lock.released': ['key', 'deleted'],
  'lock.renewed': ['key', 'ttlMs'],
  'lock.lost': ['key', 'reason'],
  'lock.failed': ['key', 'attempts'],
  'resource.request': ['resource', 'token'],
  'resource.write': ['from', 'accepted', 'reason'],
  'process.pause': ['forMs'],
  'clock.jump': ['byMs'],
  'actor.state': ['state'],
  'action.apply': ['detail'],
};

/** Plain words for field names ("highestToken" → "highest token seen"). */
const FIELD_NAMES: Record<string, string> = {
  msg: 'message',
  argv: 'command',
  expiresAtMs: 'expires at',
  highestToken: 'highest token seen',
  readVersion: 'version read',
  numReplicas: 'replicas',
  timeoutMs: 'timeout',
};

/**
 * The fields of an event worth a line in its tooltip, beside the sentence describeEvent gives:
 * what the sentence does not already say, without empty values (no "token: null"), times as
 * times, ids as names. Ends with the event's place in the trace, for the event list.
 */
export function eventDetailRows(e: TraceEvent, labelOf: LabelOf): [string, string][] {
  const rows: [string, string][] = [['time', formatMs(e.at)]];
  const said = SAID[e.kind] ?? [];
  for (const [key, value] of Object.entries(e.data as Record<string, unknown>)) {
    if (key === 'actors' || said.includes(key) || value === null || value === undefined || value === '') continue;
    rows.push([FIELD_NAMES[key] ?? words(key), formatValue(key, value, labelOf)]);
  }
  rows.push(['trace event', `#${e.id} ${e.kind}`]);
  return rows;
}

/** "numReplicas" → "num replicas"; a trailing unit ("Ms") is dropped since the value says it. */
function words(key: string): string {
  return key
    .replace(/Ms$/, '')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase();
}

function formatValue(key: string, value: unknown, labelOf: LabelOf): string {
  if (Array.isArray(value))
    return value.map((v) => (Array.isArray(v) ? v.join(' ') : String(v))).join(key === 'argv' ? ' ' : '; ');
  if (typeof value === 'number' && key.endsWith('Ms')) return formatMs(value);
  if (typeof value === 'string' && ['from', 'to', 'owner', 'leader', 'primary', 'node', 'of'].includes(key))
    return labelOf(value);
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  return String(value);
}

/**
 * How long an acquisition lets its client hold the lock: the lease the key got, or, for
 * Redlock, the validity left of it once the round and the drift allowance are taken off.
 */
function heldFor(leaseMs: number | null, validityMs: number | undefined): string {
  const lease = leaseMs === null ? 'with no expiry' : `for ${formatMs(leaseMs)}`;
  return validityMs === undefined
    ? lease
    : `for ${formatMs(validityMs)} of validity (leases ${lease.replace(/^for /, 'of ')})`;
}
