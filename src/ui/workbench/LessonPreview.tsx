import { useCallback, useEffect, useId, useMemo, useRef, useState, type ReactNode } from 'react';
import { checkAmong } from '../../lessons/catalog';
import { parseLesson } from '../../lessons/parse';
import { MAX_LESSON_CHARS } from '../../scenario/text/inputBounds';
import { readChosenFile } from '../files/readChosenFile';
import type { Block, Course, Lesson } from '../../lessons/types';
import type { Diagnostic } from '../../scenario/diagnostic';
import { mayHoldScripts, type LuaCompiler } from '../../scenario/text/luaSyntax';
import { InMemoryProgress } from '../progress/progressScope';
import { LessonEditor, type LessonEditorHandle } from './LessonEditor';
import { ProblemItems } from './ProblemList';
import { expectSummary } from './expectSummary';
import { usePreviewRuns, type PreviewRuns } from './usePreviewRuns';
import { scenarioYaml } from './workbenchModel';

/** Draws one lesson block as the lesson page does (the app passes the lesson page's BlockView). */
export type RenderBlock = (block: Block, lesson: Lesson) => ReactNode;

/**
 * An instructor's preview: paste or open a lesson file and see it as a learner will, with every
 * problem `lessons:check` would print for it: what only the site's whole set of lessons can tell
 * (slugs, courses, prerequisites, links), Lua scripts that do not compile (the Lua VM loads the
 * first time a pasted lesson holds a script), and, once typing settles, its scenarios run in the
 * simulation worker with the same checks. Sidecar scenarios (`ref: scenarios/x.yaml`) resolve to the site's own copies. Quizzes
 * and notes can be answered, into progress kept in memory only: a preview never writes a learner's progress.
 */
export function LessonPreview({
  lessons,
  courses,
  renderBlock,
}: {
  lessons: readonly Lesson[];
  courses: Course[];
  renderBlock: RenderBlock;
}) {
  const [text, setText] = useState('');
  const [fileName, setFileName] = useState('my-lesson.md');
  const [fileProblem, setFileProblem] = useState<string | null>(null);
  const refs = useMemo(() => {
    const map = new Map<string, string>();
    for (const l of lessons)
      for (const b of l.blocks) if (b.kind === 'scenario' && b.ref) map.set(b.ref, scenarioYaml(b.scenario, b.ref));
    return map;
  }, [lessons]);

  const [compileLua, setCompileLua] = useState<{ compile: LuaCompiler } | null>(null);
  const wantsLua = mayHoldScripts(text);
  useEffect(() => {
    if (!wantsLua || compileLua) return;
    let live = true;
    void Promise.all([import('../../scenario/text/luaCompiler'), import('../../redis/lua/wasmUrl')])
      .then(([{ loadLuaCompiler }, { luaWasmUrl }]) => loadLuaCompiler({ wasmUrl: luaWasmUrl }))
      .then((compile) => live && setCompileLua({ compile }))
      // Without the VM the other checks still stand, as in the workbench's editor.
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [wantsLua, compileLua]);

  const readRef = useCallback((p: string) => refs.get(p), [refs]);
  const parsed = useMemo((): { lesson: Lesson | null; diagnostics: Diagnostic[] } | null => {
    if (!text.trim()) return null;
    try {
      const result = parseLesson(text, `lessons/${fileName}`, {
        readRef,
        ...(compileLua ? { compileLua: compileLua.compile } : {}),
      });
      if (!result.lesson) return result;
      return {
        lesson: result.lesson,
        diagnostics: [...result.diagnostics, ...checkAmong({ ...result, lesson: result.lesson }, lessons, courses)],
      };
    } catch (error) {
      return {
        lesson: null,
        diagnostics: [
          {
            file: `lessons/${fileName}`,
            line: 1,
            col: 1,
            message: `the lesson could not be read: ${error instanceof Error ? error.message : String(error)}`,
          },
        ],
      };
    }
  }, [text, fileName, readRef, compileLua, lessons, courses]);
  const runs = usePreviewRuns(parsed?.lesson ?? null, text, readRef);
  const problems = useMemo(
    () =>
      [...(parsed?.diagnostics ?? []), ...(runs.state === 'done' ? runs.diagnostics : [])].sort(
        (a, b) => a.line - b.line || a.col - b.col,
      ),
    [parsed, runs],
  );
  const editor = useRef<LessonEditorHandle>(null);
  const pasteLabel = useId();
  const goTo = useCallback((d: Diagnostic) => editor.current?.goTo(d.line, d.col), []);

  return (
    <div className="lesson-preview">
      <div className="lesson-preview-input">
        <label className="workbench-file">
          Open a lesson file
          <input
            type="file"
            accept=".md,text/markdown"
            onChange={async (e) => {
              const file = e.target.files?.[0];
              e.target.value = '';
              if (!file) return;
              const read = await readChosenFile(file, MAX_LESSON_CHARS, 'a lesson file');
              setFileProblem(read.ok ? null : read.message);
              if (!read.ok) return;
              setFileName(file.name);
              setText(read.text);
            }}
          />
        </label>
        <div className="lesson-preview-paste">
          <span id={pasteLabel}>or paste it here</span>
          <LessonEditor ref={editor} value={text} onChange={setText} problems={problems} labelledBy={pasteLabel} />
        </div>
      </div>
      {fileProblem && (
        <p className="workbench-status workbench-status-bad" role="alert">
          {fileProblem}
        </p>
      )}
      {parsed && (
        <>
          {problems.length > 0 ? (
            <div className="workbench-problems" role="status">
              <p className="workbench-status workbench-status-bad">
                {fileName}: {problems.length} problem{problems.length === 1 ? '' : 's'}
                {runs.state === 'running' ? ' so far; running its scenarios…' : ''}
              </p>
              <ul aria-label="Lesson problems">
                <ProblemItems problems={problems} onPick={goTo} />
              </ul>
            </div>
          ) : runs.state === 'done' ? (
            <p className="workbench-status workbench-status-ok" role="status">
              {fileName}: no problems ({runs.runs} scenario run{runs.runs === 1 ? '' : 's'} checked, as npm run
              lessons:check does).
            </p>
          ) : (
            <p className="workbench-status" role="status" aria-busy="true">
              {fileName}: no problems so far; running its scenarios…
            </p>
          )}
          {parsed.lesson && (
            <article className="lesson lesson-preview-page" aria-label={`Preview: ${parsed.lesson.frontmatter.title}`}>
              <h1 className="lesson-preview-title">{parsed.lesson.frontmatter.title}</h1>
              <AccessNote frontmatter={parsed.lesson.frontmatter} />
              <InMemoryProgress>
                {parsed.lesson.blocks.map((block, i) => (
                  <PreviewBlock
                    key={i}
                    block={block}
                    lesson={parsed.lesson!}
                    renderBlock={renderBlock}
                    runs={runs}
                    onPick={goTo}
                  />
                ))}
              </InMemoryProgress>
            </article>
          )}
        </>
      )}
    </div>
  );
}

/**
 * Blocks an author answers as a learner would: into the preview's own progress, held in memory
 * (InMemoryProgress), never the learner's saved progress. A workbench block keeps its drafts in
 * localStorage, so it stays read-only here.
 */
const ANSWERABLE: ReadonlySet<Block['kind']> = new Set([
  'prose',
  'scenario',
  'compare',
  'invalid',
  'quiz',
  'match',
  'reflect',
  'fill-in',
  'checklist',
]);

/** A block as the lesson page shows it: quizzes answerable, simulations running, workbench drafts read-only. */
function PreviewBlock({
  block,
  lesson,
  renderBlock,
  runs,
  onPick,
}: {
  block: Block;
  lesson: Lesson;
  renderBlock: RenderBlock;
  runs: PreviewRuns;
  onPick: (d: Diagnostic) => void;
}) {
  // An author previews every word: what a quiz holds back is shown, marked as a learner meets it.
  if (block.after) {
    const { after, ...shown } = block;
    return (
      <div className="lesson-preview-held">
        <p className="lesson-preview-held-note">
          Learners see this once they answer quiz “{after}” (or choose to read on):
        </p>
        <PreviewBlock block={shown as Block} lesson={lesson} renderBlock={renderBlock} runs={runs} onPick={onPick} />
      </div>
    );
  }
  const view = renderBlock(block, lesson);
  if (block.kind === 'scenario') {
    const said = expectSummary(block, runs);
    return (
      <>
        {view}
        <div
          className={`lesson-preview-expect workbench-status workbench-status-${said.tone === 'bad' ? 'bad' : said.tone === 'ok' ? 'ok' : 'pending'}`}
          aria-busy={said.tone === 'pending'}
        >
          <p>{said.text}</p>
          {said.problems.length > 0 && (
            <ul aria-label={`Problems of scenario ${block.scenario.id}`}>
              <ProblemItems problems={said.problems} onPick={onPick} />
            </ul>
          )}
        </div>
      </>
    );
  }
  if (ANSWERABLE.has(block.kind)) return view;
  return (
    <fieldset disabled className="lesson-preview-readonly">
      <legend className="visually-hidden">Read-only preview of a {block.kind} block</legend>
      {view}
    </fieldset>
  );
}

/** How learners reach the lesson when the frontmatter changes it: the preview shows every lesson open. */
function AccessNote({ frontmatter: fm }: { frontmatter: Lesson['frontmatter'] }) {
  const notes = [
    fm.draft && 'A draft: npm run dev and this preview show it; the build leaves it out.',
    fm.hidden && 'Hidden: not in the course list, the pager or "Up next"; learners reach it by a link.',
    fm.gated &&
      `Gated: learners see its text once they have finished ${fm.prerequisites.join(', ') || 'its prerequisites'}.`,
  ].filter((n): n is string => typeof n === 'string');
  return notes.length ? <p className="lesson-preview-held-note">{notes.join(' ')}</p> : null;
}
