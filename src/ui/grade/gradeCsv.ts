/** One line of the grade table, as shown and as exported. */
export interface GradeRow {
  file: string;
  learner: string;
  lesson: string;
  result: 'passed' | 'failed' | 'invalid';
  detail: string;
  note: string;
  runs: number;
  /** A sandbox link to the run that breaks the recipe, when one does. */
  breakingRun: string | null;
}

const COLUMNS = ['learner', 'lesson', 'result', 'detail', 'note', 'runs', 'file'] as const;

/** The table as CSV (RFC 4180: every field quoted, quotes doubled, CRLF line ends), for a spreadsheet or an LMS gradebook. */
export function gradeCsv(rows: readonly GradeRow[]): string {
  const field = (value: string | number) => `"${String(value).replace(/"/g, '""')}"`;
  return (
    [COLUMNS.map(field).join(','), ...rows.map((row) => COLUMNS.map((c) => field(row[c])).join(','))].join('\r\n') +
    '\r\n'
  );
}
