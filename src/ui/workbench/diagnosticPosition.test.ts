import { Text } from '@codemirror/state';
import { describe, expect, it } from 'vitest';
import { offsetOf, toLintDiagnostic } from './diagnosticPosition';

const doc = Text.of(['---', 'slug: my-lesson', 'title: Hello', '---']);

describe('a problem as a place in the lesson editor', () => {
  it('puts line:col at that character, 1-based as lessons:check prints it', () => {
    expect(offsetOf(doc, { line: 2, col: 7 })).toBe(doc.line(2).from + 6);
    expect(doc.sliceString(offsetOf(doc, { line: 2, col: 7 }), doc.line(2).to)).toBe('my-lesson');
  });

  it('lands on the nearest place that exists when the text changed since the check', () => {
    expect(offsetOf(doc, { line: 99, col: 1 })).toBe(doc.line(4).from);
    expect(offsetOf(doc, { line: 3, col: 99 })).toBe(doc.line(3).to);
    expect(offsetOf(doc, { line: 0, col: 0 })).toBe(0);
  });

  it('underlines the word the problem points at', () => {
    const d = toLintDiagnostic(doc, { file: 'x.md', line: 2, col: 7, message: 'taken', hint: 'rename it' });
    expect(doc.sliceString(d.from, d.to)).toBe('my-lesson');
    expect(d.message).toBe('taken (rename it)');
  });
});
