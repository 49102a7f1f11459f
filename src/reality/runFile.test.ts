import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MAX_REAL_RUN_CHARS, readRealRun, realRunText } from './runFile';

const FIXTURE = 'src/reality/fixtures/paused-barista.real.json';
const text = readFileSync(FIXTURE, 'utf8');
const json = () =>
  JSON.parse(text) as Record<string, unknown> & {
    trace: { id: number; at: number; kind: string }[];
    verdicts: { reality: { invariant: string }[] };
  };
const read = (value: unknown, name = 'run.json') =>
  readRealRun(typeof value === 'string' ? value : JSON.stringify(value), name);

describe('a run recorded on real processes, as a file', () => {
  it('reads back what `npm run reality -- … --out` wrote: the trace and both sides’ verdicts', () => {
    const result = readRealRun(text, 'paused-barista.real.json');
    if (!result.ok) throw new Error(result.message);
    expect(result.run.scenario).toBe('paused-barista');
    expect(result.run.trace[0]!.kind).toBe('run.start');
    expect(result.run.verdicts.reality.find((v) => v.invariant === 'single-writer')?.holds).toBe(false);
    // Written again, it is the same file.
    expect(realRunText(result.run)).toBe(text);
  });

  it('refuses what is not a recorded run, saying how to make one', () => {
    expect(read('{ not json')).toEqual({
      ok: false,
      message: expect.stringMatching(/^"run.json" is not JSON\. .*npm run reality -- <scenario> --out run\.json/),
    });
    expect(read({ format: 'lockstep-workbench-submission', version: 1 })).toEqual({
      ok: false,
      message: expect.stringContaining('is not a run recorded on real processes'),
    });
    expect(read([1, 2])).toEqual({
      ok: false,
      message: expect.stringContaining('is not a run recorded on real processes'),
    });
    expect(read('x'.repeat(MAX_REAL_RUN_CHARS + 1))).toEqual({
      ok: false,
      message: expect.stringContaining('is larger than any recorded run'),
    });
  });

  it('refuses a newer version, naming both versions', () => {
    expect(read({ ...json(), version: 2 })).toEqual({
      ok: false,
      message: expect.stringContaining('newer Lockstep (format version 2; this site reads version 1)'),
    });
  });

  it('refuses a damaged file at the field that is wrong', () => {
    const noTrace = json();
    delete (noTrace as Record<string, unknown>).trace;
    expect(read(noTrace)).toEqual({
      ok: false,
      message: expect.stringMatching(/is damaged: trace: .*Record the run again\./),
    });
    const badVerdict = json();
    badVerdict.verdicts.reality[0]!.invariant = 'single-whatever';
    expect(read(badVerdict)).toEqual({
      ok: false,
      message: expect.stringContaining('is damaged: verdicts.reality.0.invariant'),
    });
  });

  it('refuses a trace the timeline could not read: out of order, or not starting with run.start', () => {
    const swapped = json();
    const [a, b] = [swapped.trace[3]!, swapped.trace[4]!];
    [a.at, b.at] = [b.at + 1, a.at];
    expect(read(swapped)).toEqual({ ok: false, message: expect.stringContaining('event 4 is out of order') });
    const headless = json();
    headless.trace = headless.trace.slice(1).map((e, id) => ({ ...e, id }));
    expect(read(headless)).toEqual({ ok: false, message: expect.stringContaining('does not begin with run.start') });
  });
});
