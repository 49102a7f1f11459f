import { formatMs } from '../sim/time';
import type { Verdict } from '../check/verdict';
import type { VerdictPair } from './verdicts';

const cell = (v: Verdict | null) =>
  v === null ? '— not judged' : v.holds ? '✓ holds' : `✕ broken at ${formatMs(v.atMs ?? 0)}`;

/** The verdicts as a small table: invariant, simulator, reality, and a mark where they differ. */
export function formatVerdictTable(pairs: readonly VerdictPair[]): string {
  const width = Math.max(...pairs.map((p) => p.invariant.length), 'invariant'.length) + 2;
  const rows = pairs.map(
    (p) =>
      `  ${p.invariant.padEnd(width)}${cell(p.sim).padEnd(26)}${cell(p.real).padEnd(26)}${p.agree ? '' : '← differs'}`,
  );
  return [`  ${'invariant'.padEnd(width)}${'simulator'.padEnd(26)}${'reality'.padEnd(26)}`, ...rows].join('\n');
}
