import type { OutlineTransition } from './machineOutline';

/**
 * The words the lessons use for a machine's states and events, so the diagram reads like the
 * prose (SDOWN, ODOWN, election, promotion) and not like the code's event ids. A machine not
 * named here is read by splitting its ids into words: its states already are the lane's words.
 */
interface MachineWords {
  states: Record<string, string>;
  /** By event type, or `event [guard]` for a guarded transition. */
  events: Record<string, string>;
}

const SENTINEL: MachineWords = {
  states: {
    monitoring: 'Monitoring',
    'subjectively-down': 'SDOWN (subjectively down)',
    'objectively-down': 'ODOWN (objectively down)',
    electing: 'Election',
    'failing-over': 'Promotion (failing over)',
  },
  events: {
    SDOWN: 'no reply for down-after',
    UP: 'primary answers',
    'OPINIONS [quorumReached and mayRun]': 'a quorum agrees',
    'OPINIONS [quorumReached]': 'a quorum agrees',
    OPINIONS: 'quorum lost',
    RUN: 'random delay over',
    'VOTES [elected]': 'majority voted for it',
    MANUAL: 'SENTINEL FAILOVER',
    SWITCHED: 'another leader switched',
    PROMOTED: 'replica is primary',
    NO_REPLICA: 'no replica fit',
    'after electionTimeout': 'election timed out',
    'after failoverTimeout': 'failover timed out',
  },
};

const WORDS: Record<string, MachineWords> = { sentinel: SENTINEL };

/** `renewRetryDelay` → `renew retry delay`, `GAVE_UP` → `gave up`. */
function words(id: string): string {
  return id
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .toLowerCase();
}

/** A state's name as the lessons say it. */
export function stateName(machine: string, key: string): string {
  return WORDS[machine]?.states[key] ?? key;
}

/** A transition's label as the lessons say it: the event, then its condition in brackets. */
export function transitionName(machine: string, t: OutlineTransition): string {
  const named = WORDS[machine]?.events;
  const guarded = t.guard ? `${t.on} [${t.guard}]` : t.on;
  const own = named?.[guarded] ?? (t.guard ? undefined : named?.[t.on]);
  if (own) return own;
  const guard = t.guard ? ` [${t.guard.split(' and ').map(words).join(' and ')}]` : '';
  return `${words(t.on)}${guard}`;
}
