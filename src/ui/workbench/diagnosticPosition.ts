import type { Diagnostic as LintDiagnostic } from '@codemirror/lint';
import type { Text } from '@codemirror/state';
import type { Diagnostic } from '../../scenario/diagnostic';

/**
 * A diagnostic's 1-based line:col as an offset in the document. A line or column past the end
 * (the text changed since it was checked) lands at the nearest place that exists, never outside.
 */
export function offsetOf(doc: Text, d: Pick<Diagnostic, 'line' | 'col'>): number {
  const line = doc.line(Math.min(Math.max(1, d.line), doc.lines));
  return Math.min(line.from + Math.max(0, d.col - 1), line.to);
}

/** A diagnostic's 1-based line:col as a range in the document: the word it points at. */
export function toLintDiagnostic(doc: Text, d: Diagnostic): LintDiagnostic {
  const from = offsetOf(doc, d);
  const to = doc.lineAt(from).to;
  const rest = doc.sliceString(from, to);
  const word = /^[^\s,:}\]]+/.exec(rest)?.[0].length ?? 0;
  return {
    from,
    to: from + (word || (from < to ? 1 : 0)),
    severity: d.severity === 'warning' ? 'warning' : 'error',
    message: `${d.message}${d.hint ? ` (${d.hint})` : ''}`,
    source: `${d.line}:${d.col}`,
  };
}
