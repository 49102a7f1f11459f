import { z } from 'zod';
import type { LatencyDist } from '../../net/faults';
import { formatFieldProblem, describePath } from '../../scenario/diagnostic';
import { actorIds, checkScenarioValue } from '../../scenario/parse';
import { topologySpec } from '../../scenario/redisSchema';
import { scenarioInput } from '../../scenario/scenarioInput';
import type { Scenario } from '../../scenario/schema';
import type { LearnerAction } from '../../scenario/simulation';
import type { RunConfig } from './runModel';

/**
 * Share links: a run (scenario id, seed, fencing, learner actions, and for the sandbox the
 * scenario itself) packed into the URL fragment as `?run=<base64url JSON>`. Nothing leaves the
 * browser. The payload is versioned so a newer Lockstep can still read old links, and an older
 * one can say plainly that a link is too new instead of guessing.
 */

/** The payload version this build writes; links with a higher one are "too new". */
export const SHARE_VERSION = 1;
/** Longest `run=` value accepted or produced: URLs past ~8 KB get cut by chat apps and proxies. */
export const MAX_LINK_CHARS = 8192;

const id = z.string().min(1).max(64);
/** A day of simulated time bounds every time in a link: no lesson runs longer, and nothing overflows. */
const DAY_MS = 86_400_000;
const time = z.number().int('a whole number of ms').nonnegative('not negative').max(DAY_MS, `at most ${DAY_MS} ms (one day)`);
const spanMs = z.number().nonnegative('not negative').max(DAY_MS, `at most ${DAY_MS} ms (one day)`);
const latency = z.discriminatedUnion('dist', [
  z.strictObject({ dist: z.literal('fixed'), ms: spanMs }),
  z.strictObject({ dist: z.literal('uniform'), minMs: spanMs, maxMs: spanMs }),
  z.strictObject({ dist: z.literal('long-tail'), minMs: spanMs, medianMs: spanMs, maxMs: spanMs }),
]);
const probability = z.number().min(0, 'a probability is between 0 and 1').max(1, 'a probability is between 0 and 1');

const action = z.discriminatedUnion('do', [
  z.strictObject({ at: time, do: z.literal('pause'), target: id, forMs: time.positive('greater than zero').optional() }),
  z.strictObject({ at: time, do: z.literal('resume'), target: id }),
  z.strictObject({ at: time, do: z.literal('crash'), target: id }),
  z.strictObject({ at: time, do: z.literal('restart'), target: id }),
  z.strictObject({ at: time, do: z.literal('clock-jump'), target: id, byMs: z.number().int('a whole number of ms').min(-DAY_MS, `at least -${DAY_MS} ms (one day back)`).max(DAY_MS, `at most ${DAY_MS} ms (one day ahead)`) }),
  z.strictObject({ at: time, do: z.literal('partition'), groups: z.array(z.array(id).min(1)).min(2), oneWay: z.boolean().optional() }),
  z.strictObject({ at: time, do: z.literal('heal') }),
  z.strictObject({ at: time, do: z.literal('network'), from: id.optional(), to: id.optional(), latency: latency.optional(), loss: probability.optional(), duplicate: probability.optional(), reorder: probability.optional() }),
  z.strictObject({ at: time, do: z.literal('command'), target: id, argv: z.array(z.string().max(1000)).min(1).max(64) }),
  z.strictObject({ at: time, do: z.literal('failover'), target: id }),
  z.strictObject({ at: time, do: z.literal('power-loss'), target: id }),
]);

const payload = z.strictObject({
  v: z.number().int().positive(),
  /** Scenario id. */
  s: id,
  seed: z.number().int().nonnegative().max(2 ** 32 - 1),
  /** Fencing on the resource. */
  f: z.boolean(),
  a: z.array(action).max(500),
  /**
   * The scenario itself, for runs of a scenario that is not in a lesson (the sandbox), in the
   * notation a scenario file uses (`scenarioInput`), so the scenario schema reads it back.
   */
  sc: z.unknown().optional(),
});

/** The payload's short keys as a person would name them in a message. */
const FIELD_NAMES: Record<string, string> = { v: 'version', s: 'scenario id', f: 'fencing', a: 'actions', sc: 'scenario' };

function fieldName(path: readonly PropertyKey[]): string {
  const [head, ...rest] = path.map((p) => (typeof p === 'symbol' ? String(p) : p));
  if (head === undefined) return 'the link';
  return describePath([FIELD_NAMES[String(head)] ?? head, ...rest]);
}

/** A run as a link carries it. */
export interface SharedRun {
  scenarioId: string;
  config: RunConfig;
  /** Present for sandbox runs: the scenario the run is of. */
  scenario?: Scenario;
}

export type DecodeResult = { ok: true; run: SharedRun } | { ok: false; problem: 'damaged' | 'too-new' | 'too-long'; message: string };

/** Packs a run into the text after `run=`. Throws when it would exceed MAX_LINK_CHARS. */
export function encodeRun(run: SharedRun): string {
  const body = {
    v: SHARE_VERSION,
    s: run.scenarioId,
    seed: run.config.seed,
    f: run.config.fencing,
    a: run.config.actions,
    ...(run.scenario ? { sc: scenarioInput(run.scenario) } : {}),
  };
  const text = toBase64Url(JSON.stringify(body));
  if (text.length > MAX_LINK_CHARS) throw new Error(`This run is too long to share as a link (${text.length} characters, the limit is ${MAX_LINK_CHARS}). Undo some changes, or export it as a scenario file.`);
  return text;
}

/**
 * Unpacks and validates a `run=` value. Never throws: a bad link is a result, not a crash.
 * Actions must name actors of the run's scenario: the one the link carries (sandbox), or
 * `pageScenario`, the page's scenario of that id (a lesson's player), when given.
 */
export function decodeRun(text: string, pageScenario?: Scenario): DecodeResult {
  if (text.length > MAX_LINK_CHARS) return { ok: false, problem: 'too-long', message: `the link is longer than ${MAX_LINK_CHARS} characters` };
  let json: unknown;
  try {
    json = JSON.parse(fromBase64Url(text));
  } catch {
    return { ok: false, problem: 'damaged', message: 'the link is damaged (it may have been cut short when it was copied)' };
  }
  const version = (json as { v?: unknown } | null)?.v;
  if (typeof version === 'number' && version > SHARE_VERSION) {
    return { ok: false, problem: 'too-new', message: `the link was made by a newer version of Lockstep (format ${version}); reload the page to update` };
  }
  const parsed = payload.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, problem: 'damaged', message: `the link is not valid (${issue ? `${fieldName(issue.path)}: ${issue.message}` : 'format'})` };
  }
  const p = parsed.data;
  let scenario: Scenario | undefined;
  if (p.sc !== undefined) {
    const sc = checkScenarioValue(p.sc);
    if (!sc.ok) return { ok: false, problem: 'damaged', message: `the scenario in the link is not valid (${sc.diagnostics.map(formatFieldProblem).slice(0, 3).join('; ')})` };
    scenario = sc.scenario;
  }
  const actions = [...p.a].sort((x, y) => x.at - y.at) as LearnerAction[];
  const against = scenario ?? (pageScenario?.id === p.s ? pageScenario : undefined);
  const wrong = against && actionProblem(against, p.a as LearnerAction[]);
  if (wrong) return { ok: false, problem: 'damaged', message: `the link is not valid (${wrong})` };
  return { ok: true, run: { scenarioId: p.s, config: { seed: p.seed, fencing: p.f, actions }, ...(scenario ? { scenario } : {}) } };
}

/** The first action that names an actor the scenario does not have, or a latency range upside down. */
function actionProblem(scenario: Scenario, actions: readonly LearnerAction[]): string | undefined {
  const actors = actorIds(scenario);
  const nodes = scenario.redis.nodes.map((n) => n.id);
  const failoverTargets = [...nodes, ...(scenario.redis.sentinels ? [topologySpec(scenario.redis).sentinels?.name ?? ''] : [])];
  const powered = [...nodes, ...[scenario.leaseService?.id, scenario.dbLock?.id].filter((x): x is string => x !== undefined)];
  for (const [i, a] of actions.entries()) {
    const at = (field: string) => `actions[${i}].${field}`;
    const unknown = (field: string, name: string, known: readonly string[], what: string) =>
      known.includes(name) ? undefined : `${at(field)}: '${name}' is not ${what} of scenario '${scenario.id}' (it has ${known.join(', ')})`;
    const problem =
      a.do === 'command' ? unknown('target', a.target, nodes, 'a Redis node')
      : a.do === 'failover' ? unknown('target', a.target, failoverTargets, 'a Redis node')
      : a.do === 'power-loss' ? unknown('target', a.target, powered, 'a Redis node or lock service')
      : a.do === 'partition' ? a.groups.flatMap((g, j) => g.map((name, k) => unknown(`groups[${j}][${k}]`, name, actors, 'an actor'))).find(Boolean)
      : a.do === 'network' ? latencyProblem(a.latency, at('latency')) ?? (a.from === undefined ? undefined : unknown('from', a.from, actors, 'an actor')) ?? (a.to === undefined ? undefined : unknown('to', a.to, actors, 'an actor'))
      : a.do === 'heal' ? undefined
      : unknown('target', a.target, actors, 'an actor');
    if (problem) return problem;
  }
  return undefined;
}

function latencyProblem(l: LatencyDist | undefined, where: string): string | undefined {
  if (!l || l.dist === 'fixed') return undefined;
  if (l.minMs > l.maxMs) return `${where}: minMs ${l.minMs} is more than maxMs ${l.maxMs}`;
  if (l.dist === 'long-tail' && (l.medianMs < l.minMs || l.medianMs > l.maxMs)) return `${where}: medianMs ${l.medianMs} is outside ${l.minMs}..${l.maxMs}`;
  return undefined;
}

/**
 * The page's address with `run=<encoded>` set in the fragment's query, keeping the route.
 * @example shareUrl('https://x/lockstep/#/lesson/paused-barista', 'eyJ2Ijox...') // 'https://x/lockstep/#/lesson/paused-barista?run=eyJ2Ijox...'
 */
export function shareUrl(href: string, encoded: string): string {
  const hashAt = href.indexOf('#');
  const base = hashAt === -1 ? href : href.slice(0, hashAt);
  const fragment = hashAt === -1 ? '#/' : href.slice(hashAt);
  const [path = '#/', query = ''] = fragment.split('?');
  const params = new URLSearchParams(query);
  params.set('run', encoded);
  return `${base}${path}?${params.toString()}`;
}

function toBase64Url(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): string {
  const b64 = text.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
}
