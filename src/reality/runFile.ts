import { z } from 'zod';
import { INVARIANTS } from '../check/invariants';
import type { Verdict } from '../check/verdict';
import type { TraceEvent } from '../sim/traceEvents';

/**
 * A run recorded on real processes, as `npm run reality -- … --out run.json` writes it and the
 * site's recorded-run page (#/recorded) opens it: the trace in the simulator's own event kinds,
 * timed in scenario milliseconds, and both sides' verdicts. Plain JSON, read without trusting
 * it: a file may come from anywhere.
 */
export const REAL_RUN_FORMAT = 'lockstep-reality-run';
export const REAL_RUN_VERSION = 1;

/** Far more than any real run records (a few hundred events); a bigger file is not one of ours. */
export const MAX_REAL_RUN_CHARS = 20_000_000;
const MAX_REAL_RUN_EVENTS = 200_000;

/** What a recorded real run holds. */
export interface RealRun {
  scenario: string;
  /** Real seconds per scenario second the run was made at. */
  scale: number;
  ended: 'idle' | 'time-cap';
  /** How long the run took on the wall clock, in real milliseconds. */
  wallMs: number;
  verdicts: { simulator: Verdict[]; reality: Verdict[] };
  trace: TraceEvent[];
}

const verdict = z.looseObject({
  invariant: z.enum(INVARIANTS),
  holds: z.boolean(),
  atMs: z.number().nullable(),
  eventIds: z.array(z.number().int().nonnegative()),
  explanation: z.string(),
  violations: z.number().int().nonnegative(),
});

const event = z.strictObject({
  id: z.number().int().nonnegative(),
  at: z.number().nonnegative(),
  kind: z.string().regex(/^[a-z]+(\.[a-z-]+)+$/, 'an event kind such as lock.acquired'),
  actor: z.string().min(1),
  data: z.unknown(),
});

const realRunSchema = z.strictObject({
  format: z.literal(REAL_RUN_FORMAT),
  version: z.literal(REAL_RUN_VERSION),
  scenario: z.string().min(1),
  scale: z.number().positive(),
  ended: z.enum(['idle', 'time-cap']),
  wallMs: z.number().nonnegative(),
  verdicts: z.strictObject({ simulator: z.array(verdict), reality: z.array(verdict) }),
  trace: z.array(event).min(1).max(MAX_REAL_RUN_EVENTS),
});

/** The file's text for a run (what the CLI writes). */
export function realRunText(run: RealRun): string {
  return `${JSON.stringify({ format: REAL_RUN_FORMAT, version: REAL_RUN_VERSION, ...run }, null, 1)}\n`;
}

/**
 * Reads a recorded run, or says in plain words why the file is not one and what to do. The
 * trace must be what the timeline and the checkers take it to be: events numbered from 0 in
 * order, in time order, starting with run.start.
 */
export function readRealRun(
  text: string,
  fileName: string,
): { ok: true; run: RealRun } | { ok: false; message: string } {
  const refuse = (why: string) => ({ ok: false as const, message: `"${fileName}" ${why}` });
  if (text.length > MAX_REAL_RUN_CHARS)
    return refuse(
      `is larger than any recorded run (${MAX_REAL_RUN_CHARS.toLocaleString('en')} characters at most). Check that you chose the right file.`,
    );
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return refuse('is not JSON. A recorded run is the file `npm run reality -- <scenario> --out run.json` writes.');
  }
  const head = json as { format?: unknown; version?: unknown } | null;
  if (typeof head !== 'object' || head === null || head.format !== REAL_RUN_FORMAT) {
    return refuse(
      `is not a run recorded on real processes (its "format" is not "${REAL_RUN_FORMAT}"). Make one with \`npm run reality -- <scenario> --out run.json\`.`,
    );
  }
  if (typeof head.version === 'number' && head.version > REAL_RUN_VERSION) {
    return refuse(
      `was written by a newer Lockstep (format version ${head.version}; this site reads version ${REAL_RUN_VERSION}). Open it on the site that made it, or record it again here.`,
    );
  }
  const parsed = realRunSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return refuse(
      `is damaged: ${issue.path.length ? `${issue.path.join('.')}: ` : ''}${issue.message}. Record the run again.`,
    );
  }
  const { format: _format, version: _version, ...run } = parsed.data;
  const trace = run.trace as TraceEvent[];
  const misplaced = trace.findIndex((e, i) => e.id !== i || (i > 0 && e.at < trace[i - 1]!.at));
  if (misplaced >= 0)
    return refuse(
      `is damaged: event ${misplaced} is out of order (events are numbered from 0 in time order). Record the run again.`,
    );
  if (trace[0]!.kind !== 'run.start')
    return refuse('is damaged: its trace does not begin with run.start. Record the run again.');
  return { ok: true, run: { ...run, trace, verdicts: run.verdicts as RealRun['verdicts'] } };
}
