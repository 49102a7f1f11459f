import { autocompletion } from '@codemirror/autocomplete';
import { linter, lintGutter } from '@codemirror/lint';
import { EditorState, StateEffect } from '@codemirror/state';
import { EditorView, keymap } from '@codemirror/view';
import { basicSetup } from 'codemirror';
import { useEffect, useRef } from 'react';
import type { Diagnostic } from '../../scenario/diagnostic';
import type { ScenarioResult } from '../../scenario/text/parse';
import { boundsProblem } from './checkScenarioText';
import { toLintDiagnostic } from './diagnosticPosition';
import { checkOffThread, onLuaReady } from './checkOffThread';
import { newestFirst, type Checked } from './newestCheck';
import { yamlWithLua } from './luaInYaml';
import { boundedLanguage } from './boundedLanguage';
import { scenarioCompletions, scenarioHover } from './scenarioAssist';
import type { ScriptFailure } from '../../scenario/running/scriptFailures';
import { placeScriptFailures } from './scriptFailures';

/**
 * No pause in typing is waited for. Each edit's check starts in the keystroke itself (in a worker,
 * checkOffThread.ts), not when CodeMirror's lint timer fires: that timer runs only after the
 * browser has drawn the keystroke, a frame or two later. newestFirst keeps a burst of keystrokes
 * from queueing checks, so keystroke-to-diagnostic is the check (~10 ms for 200 lines) and the
 * frame that draws its marks.
 */
const LINT_DELAY_MS = 0;

export interface ScenarioEditorProps {
  value: string;
  onChange: (text: string) => void;
  /** Called with each check's result, as its diagnostics are shown in the editor. */
  onChecked: (text: string, result: ScenarioResult) => void;
  /** Ctrl/Cmd-Enter. */
  onRun: () => void;
  /** The scripts that failed in the run on show: marked at their lines for as long as those scripts are unchanged. */
  scriptFailures?: readonly ScriptFailure[];
  /** Called with those failures as placed in the text, each time the text is checked. */
  onRunProblems?: (problems: Diagnostic[]) => void;
}

const NO_FAILURES: readonly ScriptFailure[] = [];

/** Asks for the text to be checked again though it did not change (a new run, the Lua VM now loaded). */
const recheck = StateEffect.define<null>();
function checkAgain(view: EditorView | null): void {
  view?.dispatch({ effects: recheck.of(null) });
}

/** The CodeMirror 6 editor for a scenario: YAML (Lua inside EVAL scripts), schema completion and hover, diagnostics as you type. */
export function ScenarioEditor({
  value,
  onChange,
  onChecked,
  onRun,
  scriptFailures = NO_FAILURES,
  onRunProblems,
}: ScenarioEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  // The editor is built once; callbacks may change on every render.
  const callbacks = useRef({ onChange, onChecked, onRun, onRunProblems, scriptFailures });
  callbacks.current = { onChange, onChecked, onRun, onRunProblems, scriptFailures };

  useEffect(() => {
    // One queue per editor: a page may hold several (a lesson's workbench blocks), and one
    // editor's newer text must never stand in for another's.
    const checkNewest = newestFirst((text) => checkOffThread(text));
    // The check a keystroke started, for the linter to pick up; a recheck (same text, new run or Lua ready) starts its own.
    let started: { text: string; answer: Promise<Checked<ScenarioResult>> } | null = null;
    const check = linter(
      async (v) => {
        const doc = v.state.doc;
        const asked = doc.toString();
        const answer = started?.text === asked ? started.answer : checkNewest(asked);
        started = null;
        const { text, result } = await answer;
        callbacks.current.onChecked(text, result);
        // An answer for a newer text than this one: CodeMirror shows nothing for a text it no longer holds.
        if (text !== asked) return [];
        // The run's failed scripts are placed here, after the pause in typing, and only in text the checks would parse.
        const failures = callbacks.current.scriptFailures;
        const runProblems = failures.length && !boundsProblem(text) ? placeScriptFailures(text, failures) : [];
        callbacks.current.onRunProblems?.(runProblems);
        // Positions are mapped onto the text that was checked; CodeMirror moves them through later edits.
        return [...(result.ok ? [] : result.diagnostics), ...runProblems].map((d) => toLintDiagnostic(doc, d));
      },
      { delay: LINT_DELAY_MS, needsRefresh: (u) => u.transactions.some((t) => t.effects.some((e) => e.is(recheck))) },
    );
    const created = new EditorView({
      parent: host.current!,
      state: EditorState.create({
        doc: value,
        extensions: [
          keymap.of([{ key: 'Mod-Enter', run: () => (callbacks.current.onRun(), true) }]),
          basicSetup,
          boundedLanguage(yamlWithLua(), (text) => !boundsProblem(text), value).extension,
          autocompletion({ override: [scenarioCompletions], activateOnTyping: true }),
          scenarioHover,
          check,
          lintGutter(),
          EditorView.lineWrapping,
          EditorView.contentAttributes.of({ 'aria-label': 'Scenario (YAML)' }),
          EditorView.updateListener.of((u) => {
            if (!u.docChanged) return;
            const text = u.state.doc.toString();
            started = { text, answer: checkNewest(text) };
            callbacks.current.onChange(text);
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

  // Scripts typed while the check worker loaded its Lua VM are checked once it is there.
  useEffect(() => onLuaReady(() => checkAgain(view.current)), []);

  // A new run's failures are marked without waiting for the next edit.
  useEffect(() => {
    checkAgain(view.current);
  }, [scriptFailures]);

  // A template, a lesson scenario or a share link replaces the text from outside.
  useEffect(() => {
    const v = view.current;
    if (v && v.state.doc.toString() !== value)
      v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: value } });
  }, [value]);

  return <div className="workbench-editor" ref={host} />;
}
