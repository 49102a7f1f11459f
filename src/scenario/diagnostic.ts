/** Where in a document something is: keys and list indexes from its top (`['clients', 0, 'ttl']`). */
export type Path = (string | number)[];

/** Reports one problem at `path`, with a hint where there is a fix to suggest. */
export type Report = (path: Path, message: string, hint?: string) => void;

/** One problem in an author's file, pointing at the exact place: `file:line:col: message (hint)`. */
export interface Diagnostic {
  file: string;
  /** 1-based. */
  line: number;
  /** 1-based. */
  col: number;
  message: string;
  hint?: string;
  /** A warning is worth a look but does not fail `lessons:check`; absent means an error. */
  severity?: 'warning';
  /** Where in the document's structure (`clients[0].ttl`), for input that has no lines (a share link). */
  path?: readonly (string | number)[];
}

/** A problem in input without lines, named by its field: `clients[0].ttl: should be a number (hint)`. */
export function formatFieldProblem(d: Diagnostic): string {
  const where = d.path?.length ? describePath(d.path) : '';
  return `${where}${where ? ': ' : ''}${d.message}${d.hint ? ` (${d.hint})` : ''}`;
}

/** A path for people: `clients[0].steps[2].node`; the empty path is the whole block. */
export function describePath(path: readonly (string | number)[]): string {
  if (!path.length) return 'the block';
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('');
}

export function formatDiagnostic(d: Diagnostic): string {
  return `${d.file}:${d.line}:${d.col}: ${d.severity ? `${d.severity}: ` : ''}${d.message}${d.hint ? ` (${d.hint})` : ''}`;
}

/** Where a block of text sits inside its file, so positions inside it map back to the file. */
export interface SourceOrigin {
  file: string;
  /** 1-based line of the block's first line in the file. */
  line: number;
}

/** The closest candidate to `word` by edit distance, if it is close enough to be a likely typo. */
export function didYouMean(word: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.floor(word.length / 3)) + 1;
  for (const candidate of candidates) {
    const d = editDistance(word.toLowerCase(), candidate.toLowerCase());
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
    }
    previous = current;
  }
  return previous[b.length]!;
}
