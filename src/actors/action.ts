import type { LatencyDist } from '../net/faults';
import type { SimTimeMs } from '../sim/time';

/**
 * Something done to the world at a moment: a process paused or crashed, the network cut or
 * made lossy, a command typed at a Redis node, a failover. The one declaration of it: a
 * scenario's script, the learner's buttons, a share link, `npm run sim --actions` and the
 * explorer's faults all produce these, and `World.apply` carries them out. The zod schemas that
 * read actions from outside (`src/scenario/schema/actionSchema.ts`, the script in
 * `src/scenario/schema/schema.ts`) are checked against it at compile time.
 */
export type Action =
  | { at: SimTimeMs; do: 'pause'; target: string; forMs?: number }
  | { at: SimTimeMs; do: 'resume'; target: string }
  | { at: SimTimeMs; do: 'crash'; target: string }
  | { at: SimTimeMs; do: 'restart'; target: string }
  | { at: SimTimeMs; do: 'clock-jump'; target: string; byMs: number }
  /** Cut the links between groups of process ids (one way: only groups[0] → groups[1]). */
  | { at: SimTimeMs; do: 'partition'; groups: string[][]; oneWay?: boolean }
  /** Heal every partition. */
  | { at: SimTimeMs; do: 'heal' }
  /** Change the network weather on every link, or on the links from → to. */
  | {
      at: SimTimeMs;
      do: 'network';
      from?: string;
      to?: string;
      latency?: LatencyDist;
      loss?: number;
      duplicate?: number;
      reorder?: number;
    }
  /** Run one command on a Redis node, as the playground's console does (recorded as redis.command from 'console'). */
  | { at: SimTimeMs; do: 'command'; target: string; argv: string[] }
  /** SENTINEL FAILOVER on a group (or its primary's id); without Sentinel, a failover by hand. */
  | { at: SimTimeMs; do: 'failover'; target: string }
  /** The machine loses power: unlike `crash`, unsynced AOF writes are gone. */
  | { at: SimTimeMs; do: 'power-loss'; target: string };

/** What an action does: its `do`. */
export type ActionKind = Action['do'];

/** The action of kind `K`. */
export type ActionOf<K extends ActionKind> = Extract<Action, { do: K }>;

/**
 * An action without its moment: what the world applies when the moment comes, and what a
 * player's button asks for now (the player stamps the time).
 */
export type UntimedAction = Action extends infer A ? (A extends Action ? Omit<A, 'at'> : never) : never;
