import { z } from 'zod';
import { CLAIM_EVENTS, CLAIM_METRICS, type ClaimEvent, type EventQuery, type Measure } from '../../check/runMeasures';
import { parseCommandQuery, type CommandQuery } from '../../check/commandReplies';
import { blockId } from '../../scenario/schema/ids';
import { INVARIANTS, scriptAction, type ScriptAction } from '../../scenario/schema/schema';
import { didYouMean } from '../../scenario/diagnostic';

/**
 * The ```claims block: what the prose around a run says that run shows, so that lessons:check
 * fails when the run changes and the prose does not. Learners never see it. Each claim quotes
 * the prose (`says`, found word for word in the lesson) and names what it measures:
 *
 *     run: frozen-watchdog            # the scenario it is about; default: the nearest one above
 *     claims:
 *       - { says: "11.6 s", at: write by A }
 *       - { says: "0.7 s", from: acquired by B, to: lost by A }
 *       - { says: "19 acquisitions", count: acquired }
 *       - { says: "token 1", token: write by A }
 *       - { says: "near 16%", metric: successRate }
 *       - { says: "validity of 9.848 s", validity: acquired by A }
 *       - { says: "ran out at 9.9 s", valid-until: acquired by A }
 *       - { says: "replays one command", replayed: recovered by r3 }
 *       - { says: "broke at 18 s", verdict: single-writer }
 *       - { says: "B's knock gets `(nil)`", reply: 2nd SET by B }
 *
 * `actions:` (in a scenario script's notation) makes the run the one a learner gets by doing
 * what the prose tells them to try, so "a 9-second delay lands the order at 10 s" is checked too.
 */
const query = z.string().min(1);

export const claimSchema = z.strictObject({
  /** Words of the lesson's prose that state a number, quoted exactly as written. */
  says: z
    .string()
    .min(1)
    .meta({
      description:
        'Words of the lesson that state a number, quoted exactly as written; its first number is the claim, compared to the precision it is written with.',
      examples: ['runs again at 11.55 s'],
    }),
  /** When it happened: "write by A", "2nd acquired by B", "last renewed by A". */
  at: query.optional().meta({
    description:
      'Measures when a happening took place. A happening: `[first | 2nd | \u2026 | last] <event> [by <actor>]`.',
    examples: ['write by A'],
  }),
  /** How long between two happenings (with `to`). */
  from: query
    .optional()
    .meta({ description: 'With `to`: measures how long from this happening to that one.', examples: ['paused by A'] }),
  to: query
    .optional()
    .meta({ description: 'With `from`: the happening that ends the span.', examples: ['resumed by A'] }),
  /** How many times: "acquired", "renewed by A". */
  count: query
    .optional()
    .meta({ description: 'Measures how many times a happening took place.', examples: ['acquired'] }),
  /** The fencing token a write or acquisition carried. */
  token: query
    .optional()
    .meta({ description: 'Measures the fencing token a write or acquisition carried.', examples: ['write by B'] }),
  /** A figure of the lock dashboard. */
  metric: z
    .enum(CLAIM_METRICS)
    .optional()
    .meta({
      description: 'Measures a figure of the lock dashboard (p50 and p95 are acquire latencies in ms).',
      examples: ['successRate'],
    }),
  /** How long a Redlock acquisition may be trusted (TTL − elapsed − drift): "acquired by A". */
  validity: query.optional().meta({
    description:
      'Measures how long a Redlock acquisition may be trusted, TTL minus elapsed minus drift, as the client computed it.',
    examples: ['acquired by A'],
  }),
  /** When that acquisition's validity runs out. */
  'valid-until': query.optional().meta({
    description: "Measures when that trust runs out: the acquisition's moment plus its validity.",
    examples: ['acquired by A'],
  }),
  /** How many commands a Redis node replayed when it came back: "recovered by r3". */
  replayed: query.optional().meta({
    description: 'Measures how many commands a restarted Redis node replayed from its AOF.',
    examples: ['recovered by r3'],
  }),
  /** When an invariant broke in the run. */
  verdict: z
    .enum(INVARIANTS)
    .optional()
    .meta({
      description: "Measures when that invariant broke, as the player's verdict says; a claim on one that held fails.",
      examples: ['single-writer'],
    }),
  /** The reply Redis gave a command, quoted as the last `code` in `says`: "2nd SET by B", "EVAL by A", "last WAIT". */
  reply: query.optional().meta({
    description:
      'Binds the reply Redis sent a command, quoted as the last `code` in `says`: `[first | 2nd | \u2026 | last] <COMMAND> [arguments] [by <client>]`.',
    examples: ['SET by B'],
  }),
});

export const claimsSchema = z.strictObject({
  id: blockId
    .optional()
    .meta({ description: 'Stable name for the block; learners never see it.', examples: ['pause-numbers'] }),
  /** The id of a scenario or dashboard block of this lesson; default: the nearest one above. */
  run: z
    .string()
    .min(1)
    .optional()
    .meta({
      description: 'The id of a scenario or dashboard block of this lesson; left out, the nearest one above.',
      examples: ['paused-barista'],
    }),
  /** What the learner does to the run before it shows these numbers, as a scenario's `script` writes it. */
  actions: z
    .array(scriptAction)
    .min(1)
    .optional()
    .meta({
      description:
        "What the learner does to the run before it shows these numbers, written as a scenario's `script`; left out, the run nobody touches.",
      examples: [[{ at: '500ms', do: 'network', from: 'A', to: 'espresso', latency: '9s' }]],
    }),
  claims: z
    .array(claimSchema)
    .min(1)
    .meta({
      description: 'The claims, each a quote from the lesson and one measure of the run.',
      examples: [[{ says: 'runs again at 11.55 s', at: 'resumed by A' }]],
    }),
});

export type ClaimSpec = z.output<typeof claimSchema>;

/** A claim on a reply: the words quote Redis's answer to a command rather than state a number. */
export interface ReplyMeasure {
  kind: 'reply';
  query: CommandQuery;
}

/** A claim ready to check: the prose it quotes and what it measures. */
export interface Claim {
  says: string;
  measure: Measure | ReplyMeasure;
  /** Where the claim is written in the block, for problems with the claim itself. */
  line: number;
  col: number;
}

export interface ClaimsSpec {
  run: string | null;
  /** The learner's actions the run takes (none: the run as the player first shows it). */
  actions: ScriptAction[];
  claims: Claim[];
}

const QUERY = /^(?:(last|first|(\d+)(?:st|nd|rd|th)) +)?([a-z-]+)(?: +by +(\S+))?$/;

/** Reads "2nd write by A" as a query, or says what is wrong with it. */
export function parseQuery(
  text: string,
): { ok: true; query: EventQuery } | { ok: false; message: string; hint: string } {
  const match = QUERY.exec(text.trim());
  const event = match?.[3];
  if (!match || event === undefined) {
    return {
      ok: false,
      message: `cannot read '${text}' as a happening`,
      hint: "write '[first|2nd|last] <event> [by <actor>]', e.g. 'write by A'",
    };
  }
  if (!(CLAIM_EVENTS as readonly string[]).includes(event)) {
    const guess = didYouMean(event, CLAIM_EVENTS);
    return {
      ok: false,
      message: `unknown event '${event}'`,
      hint: guess ? `did you mean '${guess}'?` : `events: ${CLAIM_EVENTS.join(', ')}`,
    };
  }
  const nth = match[1] === 'last' ? 'last' : match[2] !== undefined ? Number(match[2]) : 1;
  if (nth !== 'last' && nth < 1) return { ok: false, message: `there is no ${match[1]} event`, hint: 'count from 1st' };
  return { ok: true, query: { event: event as ClaimEvent, by: match[4] ?? null, nth } };
}

/** The one measure a claim names, or what is wrong with it (`path` is the key at fault). */
export function measureOf(
  spec: ClaimSpec,
): { ok: true; measure: Measure | ReplyMeasure } | { ok: false; path: string; message: string; hint: string } {
  const named = (
    ['at', 'from', 'count', 'token', 'metric', 'validity', 'valid-until', 'replayed', 'verdict', 'reply'] as const
  ).filter((key) => spec[key] !== undefined);
  if (named.length !== 1 || (spec.to !== undefined) !== (spec.from !== undefined)) {
    return {
      ok: false,
      path: 'says',
      message: 'a claim measures one thing',
      hint: "give exactly one of 'at', 'from' with 'to', 'count', 'token', 'metric', 'validity', 'valid-until', 'replayed', 'verdict' or 'reply'",
    };
  }
  if (spec.reply !== undefined) {
    const parsed = parseCommandQuery(spec.reply);
    return parsed.ok ? { ok: true, measure: { kind: 'reply', query: parsed.query } } : { ...parsed, path: 'reply' };
  }
  if (spec.metric !== undefined) return { ok: true, measure: { kind: 'metric', name: spec.metric } };
  if (spec.verdict !== undefined) return { ok: true, measure: { kind: 'verdict', invariant: spec.verdict } };
  const read = (key: 'at' | 'from' | 'to' | 'count' | 'token' | 'validity' | 'valid-until' | 'replayed') => {
    const parsed = parseQuery(spec[key]!);
    return parsed.ok ? parsed : { ...parsed, path: key };
  };
  if (spec.from !== undefined) {
    const from = read('from');
    const to = read('to');
    if (!from.ok) return from;
    if (!to.ok) return to;
    return { ok: true, measure: { kind: 'between', from: from.query, to: to.query } };
  }
  const key = named[0] as 'at' | 'count' | 'token' | 'validity' | 'valid-until' | 'replayed';
  const parsed = read(key);
  if (!parsed.ok) return parsed;
  if (key === 'count') return { ok: true, measure: { kind: 'count', event: parsed.query.event, by: parsed.query.by } };
  return { ok: true, measure: { kind: key, query: parsed.query } };
}
