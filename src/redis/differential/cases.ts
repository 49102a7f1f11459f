/**
 * Hand-written differential cases. A case file holds cases separated by `## title` lines;
 * each following non-empty line is one redis-cli input line. Lines starting with `# ` are
 * comments. A line starting with `~ ` is sent without that prefix and its output is compared
 * as a multiset of lines (for KEYS/SCAN, whose order depends on a random hash seed).
 */
export interface CaseLine {
  line: string;
  unordered: boolean;
}

export interface DiffCase {
  file: string;
  title: string;
  lines: CaseLine[];
}

/** Parses one case file's text. */
export function parseCaseFile(file: string, text: string): DiffCase[] {
  const cases: DiffCase[] = [];
  let current: DiffCase | null = null;
  for (const raw of text.split('\n')) {
    if (raw.startsWith('## ')) {
      current = { file, title: raw.slice(3).trim(), lines: [] };
      cases.push(current);
    } else if (raw.trim() === '' || raw.startsWith('# ') || raw === '#') {
      continue;
    } else if (current === null) {
      throw new Error(`${file}: command line before the first "## title": ${raw}`);
    } else if (raw.startsWith('~ ')) {
      current.lines.push({ line: raw.slice(2), unordered: true });
    } else {
      current.lines.push({ line: raw, unordered: false });
    }
  }
  return cases;
}

/** Commands that put a real server back to a fresh state between cases. */
export const RESET_LINES = [
  'FLUSHALL',
  'SCRIPT FLUSH',
  'CONFIG SET maxmemory 0 maxmemory-policy noeviction min-replicas-to-write 0 min-replicas-max-lag 10 busy-reply-threshold 5000 appendfsync everysec',
  'DEBUG SET-ACTIVE-EXPIRE 1',
  'DEBUG SET-DISABLE-DENY-SCRIPTS 0',
];

const MARK = '@@diff';

/** The marker line that separates outputs, and how redis-cli prints it. */
export function marker(caseIndex: number, lineIndex: number): { command: string; printed: string } {
  const text = `${MARK} ${caseIndex} ${lineIndex}`;
  return { command: `ECHO "${text}"`, printed: `"${text}"` };
}

/** Normalizes output for comparison: unordered lines lose their numbering and get sorted. */
export function comparable(lines: string[], unordered: boolean): string[] {
  if (!unordered) return lines;
  return lines.map((l) => l.replace(/^(\s*\d+\) )+/, '').trim()).sort();
}

/** Builds the whole redis-cli input for a list of cases (markers before every line). */
export function buildRealInput(cases: DiffCase[]): string {
  const input: string[] = [];
  cases.forEach((c, ci) => {
    // The reset commands get their own marker so their "OK"s land in an ignored bucket.
    input.push(marker(ci, -1).command, ...RESET_LINES);
    c.lines.forEach((l, li) => {
      input.push(marker(ci, li).command, l.line);
    });
  });
  input.push(marker(cases.length, 0).command);
  return `${input.join('\n')}\n`;
}

/** Splits redis-cli's output back into per-line outputs, keyed `case:line`. */
export function splitRealOutput(output: string, cases: DiffCase[]): Map<string, string[]> {
  const byKey = new Map<string, string[]>();
  let key: string | null = null;
  let buffer: string[] = [];
  const lines = output.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const printedToKey = new Map<string, string>();
  cases.forEach((c, ci) => {
    printedToKey.set(marker(ci, -1).printed, `${ci}:reset`);
    c.lines.forEach((_, li) => printedToKey.set(marker(ci, li).printed, `${ci}:${li}`));
  });
  const end = marker(cases.length, 0).printed;
  for (const line of lines) {
    const next = printedToKey.get(line);
    if (next !== undefined || line === end) {
      if (key !== null) byKey.set(key, buffer);
      key = next ?? null;
      buffer = [];
    } else if (key !== null) buffer.push(line);
  }
  return byKey;
}
