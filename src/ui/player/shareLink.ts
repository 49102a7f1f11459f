import { z } from 'zod';
import { actionsSchema, checkActions } from '../../scenario/schema/actionSchema';
import { formatFieldProblem, describePath } from '../../scenario/diagnostic';
import { checkScenarioValue } from '../../scenario/text/parse';
import { scenarioInput } from '../../scenario/text/scenarioInput';
import { storyEditsSchema } from '../../scenario/running/storyEdits';
import type { Scenario } from '../../scenario/schema/schema';
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

const payload = z.strictObject({
  v: z.number().int().positive(),
  /** Scenario id. */
  s: id,
  seed: z.number().int().nonnegative(),
  /** Fencing on the resource. */
  f: z.boolean(),
  a: actionsSchema,
  /** The learner's changes to the scenario's own script (`src/scenario/running/storyEdits.ts`), when there are any. */
  e: storyEditsSchema.optional(),
  /**
   * The scenario itself, for runs of a scenario that is not in a lesson (the sandbox), in the
   * notation a scenario file uses (`scenarioInput`), so the scenario schema reads it back.
   */
  sc: z.unknown().optional(),
});

/** The payload's short keys as a person would name them in a message. */
const FIELD_NAMES: Record<string, string> = {
  v: 'version',
  s: 'scenario id',
  f: 'fencing',
  a: 'actions',
  e: 'changes to the script',
  sc: 'scenario',
};

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

export type DecodeResult =
  { ok: true; run: SharedRun } | { ok: false; problem: 'damaged' | 'too-new' | 'too-long'; message: string };

/** Packs a run into the text after `run=`. Throws when it would exceed MAX_LINK_CHARS. */
export function encodeRun(run: SharedRun): string {
  const body = {
    v: SHARE_VERSION,
    s: run.scenarioId,
    seed: run.config.seed,
    f: run.config.fencing,
    a: run.config.actions,
    ...(run.config.edits?.length ? { e: run.config.edits } : {}),
    ...(run.scenario ? { sc: scenarioInput(run.scenario) } : {}),
  };
  const text = toBase64Url(JSON.stringify(body));
  if (text.length > MAX_LINK_CHARS)
    throw new Error(
      `This run is too long to share as a link (${text.length} characters, the limit is ${MAX_LINK_CHARS}). Undo some changes, or export it as a scenario file.`,
    );
  return text;
}

/**
 * Unpacks and validates a `run=` value. Never throws: a bad link is a result, not a crash.
 * Actions must name actors of the run's scenario: the one the link carries (sandbox), or
 * `pageScenario`, the page's scenario of that id (a lesson's player), when given.
 */
export function decodeRun(text: string, pageScenario?: Scenario): DecodeResult {
  if (text.length > MAX_LINK_CHARS)
    return { ok: false, problem: 'too-long', message: `the link is longer than ${MAX_LINK_CHARS} characters` };
  let json: unknown;
  try {
    json = JSON.parse(fromBase64Url(text));
  } catch {
    return {
      ok: false,
      problem: 'damaged',
      message: 'the link is damaged (it may have been cut short when it was copied)',
    };
  }
  const version = (json as { v?: unknown } | null)?.v;
  if (typeof version === 'number' && version > SHARE_VERSION) {
    return {
      ok: false,
      problem: 'too-new',
      message: `the link was made by a newer version of Lockstep (format ${version}); reload the page to update`,
    };
  }
  const parsed = payload.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return {
      ok: false,
      problem: 'damaged',
      message: `the link is not valid (${issue ? `${fieldName(issue.path)}: ${issue.message}` : 'format'})`,
    };
  }
  const p = parsed.data;
  let scenario: Scenario | undefined;
  if (p.sc !== undefined) {
    const sc = checkScenarioValue(p.sc);
    if (!sc.ok)
      return {
        ok: false,
        problem: 'damaged',
        message: `the scenario in the link is not valid (${sc.diagnostics.map(formatFieldProblem).slice(0, 3).join('; ')})`,
      };
    scenario = sc.scenario;
  }
  const actions = [...p.a].sort((x, y) => x.at - y.at);
  const against = scenario ?? (pageScenario?.id === p.s ? pageScenario : undefined);
  const wrong: string[] = [];
  if (against)
    checkActions(against, p.a, (path, message, hint) =>
      wrong.push(
        formatFieldProblem({
          file: '',
          line: 0,
          col: 0,
          path: ['actions', ...path],
          message,
          ...(hint ? { hint } : {}),
        }),
      ),
    );
  if (wrong.length) return { ok: false, problem: 'damaged', message: `the link is not valid (${wrong[0]})` };
  return {
    ok: true,
    run: {
      scenarioId: p.s,
      config: { seed: p.seed, fencing: p.f, actions, ...(p.e?.length ? { edits: p.e } : {}) },
      ...(scenario ? { scenario } : {}),
    },
  };
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
