import { CliSession } from '../session';
import type { ScriptEngine } from '../scriptEngine';
import { buildRealInput, comparable, splitRealOutput, type DiffCase } from './cases';
import { runRedisCli } from '../../testing/realRedis';

/** One line whose simulated output differs from the real server's. */
export interface Difference {
  file: string;
  title: string;
  lines: string[];
  line: string;
  real: string[];
  sim: string[];
}

/** Runs cases through a fresh simulated session each, from a fixed start time. */
export function simulateCase(c: DiffCase, scripts: ScriptEngine | undefined, startMs: number, seed = 1): string[][] {
  let state = seed >>> 0 || 1;
  // A tiny xorshift keeps active-expiry sampling deterministic without importing the kernel.
  const random = (): number => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 2 ** 32;
  };
  const session = new CliSession(startMs, { random, scripts });
  return c.lines.map((l) => session.runLine(l.line));
}

/** Runs every case through redis-cli against the real server and through the simulator. */
export async function diffCases(
  port: number,
  cases: DiffCase[],
  scripts: ScriptEngine | undefined,
  startMs: number,
): Promise<Difference[]> {
  const realOutput = await runRedisCli(port, buildRealInput(cases));
  const real = splitRealOutput(realOutput, cases);
  const differences: Difference[] = [];
  cases.forEach((c, ci) => {
    const sim = simulateCase(c, scripts, startMs);
    c.lines.forEach((l, li) => {
      const realLines = real.get(`${ci}:${li}`) ?? ['<no output captured>'];
      const simLines = sim[li] ?? [];
      const a = comparable(realLines, l.unordered).join('\n');
      const b = comparable(simLines, l.unordered).join('\n');
      if (a !== b) {
        differences.push({
          file: c.file,
          title: c.title,
          lines: c.lines.map((x) => x.line),
          line: l.line,
          real: realLines,
          sim: simLines,
        });
      }
    });
  });
  return differences;
}

/** Renders differences for a failure message: the case, the line, both outputs. */
export function describeDifferences(differences: Difference[], limit = 15): string {
  const shown = differences
    .slice(0, limit)
    .map(
      (d) =>
        `--- ${d.file} :: ${d.title}\n    case: ${d.lines.join(' | ')}\n    line: ${d.line}\n` +
        `    real: ${d.real.join('\n          ')}\n    sim:  ${d.sim.join('\n          ')}`,
    );
  const more = differences.length > limit ? `\n... and ${differences.length - limit} more` : '';
  return `${differences.length} difference(s) between redis-server and the simulator:\n${shown.join('\n')}${more}`;
}
