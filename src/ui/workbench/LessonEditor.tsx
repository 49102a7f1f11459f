import { lintGutter, setDiagnostics } from '@codemirror/lint';
import { EditorSelection, EditorState } from '@codemirror/state';
import { EditorView, placeholder } from '@codemirror/view';
import { basicSetup } from 'codemirror';
import { forwardRef, useEffect, useImperativeHandle, useRef } from 'react';
import type { Diagnostic } from '../../scenario/diagnostic';
import { offsetOf, toLintDiagnostic } from './diagnosticPosition';

/** What the preview asks of its editor: go to a problem. */
export interface LessonEditorHandle {
  /** Puts the cursor at a 1-based line and column, scrolls it into view and focuses the editor. */
  goTo(line: number, col: number): void;
}

interface Props {
  value: string;
  onChange: (text: string) => void;
  /** The problems found in the text, underlined at their line and column. */
  problems: readonly Diagnostic[];
  /** The id of the visible words that name the editor. */
  labelledBy: string;
}

/**
 * The lesson text in CodeMirror 6, plain text with line numbers, so an author can find the
 * `line:col` each problem names. The problems come from the preview (parsing and the scenario
 * runs), not from a lint source of the editor's own: the editor only draws them.
 */
export const LessonEditor = forwardRef<LessonEditorHandle, Props>(function LessonEditor(
  { value, onChange, problems, labelledBy },
  ref,
) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  // The editor is built once; the callback may change on every render.
  const changed = useRef(onChange);
  changed.current = onChange;

  useEffect(() => {
    const created = new EditorView({
      parent: host.current!,
      state: EditorState.create({
        doc: value,
        extensions: [
          basicSetup,
          lintGutter(),
          EditorView.lineWrapping,
          placeholder('---\nslug: my-lesson\ntitle: …\n---'),
          EditorView.contentAttributes.of({ 'aria-labelledby': labelledBy, spellcheck: 'false' }),
          EditorView.updateListener.of((u) => {
            if (u.docChanged) changed.current(u.state.doc.toString());
          }),
        ],
      }),
    });
    view.current = created;
    return () => {
      created.destroy();
      view.current = null;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // An opened file replaces the text from outside.
  useEffect(() => {
    const v = view.current;
    if (v && v.state.doc.toString() !== value)
      v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: value } });
  }, [value]);

  useEffect(() => {
    const v = view.current;
    if (v)
      v.dispatch(
        setDiagnostics(
          v.state,
          problems.map((d) => toLintDiagnostic(v.state.doc, d)),
        ),
      );
  }, [problems]);

  useImperativeHandle(ref, () => ({
    goTo(line, col) {
      const v = view.current;
      if (!v) return;
      const at = offsetOf(v.state.doc, { line, col });
      v.dispatch({ selection: EditorSelection.cursor(at), effects: EditorView.scrollIntoView(at, { y: 'center' }) });
      v.focus();
    },
  }));

  return <div className="workbench-editor lesson-editor" ref={host} />;
});
