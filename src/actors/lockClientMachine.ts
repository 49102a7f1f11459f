import { assign, setup } from 'xstate';
import type { Reply } from '../redis/reply';

/** What a lock client knows. It is the client's *belief*; Redis may see things differently. */
export interface LockClientContext {
  key: string;
  ttlMs: number;
  workMs: number;
  startAtMs: number;
  retryMs: number;
  /** The random value this client stores in the lock key, to recognise its own lease. */
  value: string;
  /** Ask Redis for a fencing token with the lease, and show it to the resource. */
  fencing: boolean;
  /** The token from the last successful acquisition (fenced runs only). */
  token: number | null;
}

export type LockClientInput = Omit<LockClientContext, 'token'>;

export type LockClientEvent =
  | { type: 'redis.reply'; reply: Reply }
  | { type: 'resource.ack'; accepted: boolean };

/** A reply that means "the lease is yours": OK from SET, or a token from the fenced script. */
function granted(reply: Reply): boolean {
  return (reply.type === 'status' && reply.value === 'OK') || reply.type === 'integer';
}

/**
 * A lease-based lock client: wait for its start time, take the lease, do its work, write to
 * the protected resource, release. The effects (sending to Redis or the resource, recording
 * beliefs) are named here and bound by the world with `provide()`; time comes from the
 * kernel through the actor's clock, so `after` delays are virtual and freeze during a pause.
 */
export const lockClientMachine = setup({
  types: {
    context: {} as LockClientContext,
    events: {} as LockClientEvent,
    input: {} as LockClientInput,
  },
  actions: {
    sendAcquire: () => {},
    sendWrite: () => {},
    sendRelease: () => {},
    noteAcquired: () => {},
    noteBusy: () => {},
    noteReleased: () => {},
  },
  delays: {
    startDelay: ({ context }) => context.startAtMs,
    workDelay: ({ context }) => context.workMs,
    retryDelay: ({ context }) => context.retryMs,
  },
  guards: {
    granted: ({ event }) => event.type === 'redis.reply' && granted(event.reply),
  },
}).createMachine({
  id: 'lockClient',
  context: ({ input }) => ({ ...input, token: null }),
  initial: 'idle',
  states: {
    idle: { after: { startDelay: 'acquiring' } },
    acquiring: {
      entry: 'sendAcquire',
      on: {
        'redis.reply': [
          {
            guard: 'granted',
            target: 'working',
            actions: [
              assign({ token: ({ event }) => (event.reply.type === 'integer' ? Number(event.reply.value) : null) }),
              'noteAcquired',
            ],
          },
          { target: 'waiting', actions: 'noteBusy' },
        ],
      },
    },
    waiting: { after: { retryDelay: 'acquiring' } },
    working: { after: { workDelay: 'writing' } },
    writing: { entry: 'sendWrite', on: { 'resource.ack': 'releasing' } },
    releasing: { entry: 'sendRelease', on: { 'redis.reply': { target: 'done', actions: 'noteReleased' } } },
    done: { type: 'final' },
  },
});
