import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useStore } from 'zustand';
import type { Catalog } from '../../lessons/types';
import { MAX_YAML_CHARS } from '../../scenario/text/inputBounds';
import { downloadText } from '../blocks/download';
import { BreakIt } from '../explorer/BreakIt';
import { invariantsToBreak } from '../explorer/invariantChoices';
import { readChosenFile } from '../files/readChosenFile';
import { Loaded, loader } from '../layout/loader';
import type { PlayerStore } from '../player/playerStore';
import type { RunConfig } from '../player/runModel';
import { ScenarioPlayer } from '../player/ScenarioPlayer';
import { lessonHref, WORKBENCH_HREF } from '../routing/route';
import { useRoute } from '../routing/useRoute';
import { checkOffThread } from './checkOffThread';
import { checkScenarioText } from './checkScenarioText';
import type { RenderBlock } from './LessonPreview';
import { ProblemList, RunProblemList } from './ProblemList';
import { ScenarioEditor } from './ScenarioEditor';
import { fileNameFor, lessonScenarios, loadedWorkNotice, scenarioYaml, TEMPLATE } from './workbenchModel';
import { createWorkbenchStore, workbenchView } from './workbenchStore';
import './workbench.css';

// The lesson parser (remark) is only for instructors: a chunk of its own, fetched when opened.
const loadLessonPreview = loader(() => import('./LessonPreview').then((m) => m.LessonPreview));

function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

/**
 * The workbench: write a scenario (clients as recipes or as their own Redis commands), see its
 * problems as you type, run it in the player, and share or save it. An invalid edit never
 * replaces the run on show: the player keeps the last valid version and says so. What the
 * buttons do lives in a store of its own (workbenchStore.ts, tested in Node); this component
 * draws it and wires it to the page (storage, the worker, confirm, the clipboard, the URL).
 *
 * The catalog and the lesson page's block renderer come from the app as props: importing the
 * catalog store or BlockView (modules that use Zustand) from this lazy chunk made the bundler
 * move React into a chunk of its own, preloaded by the first page: 1.3 KB more gzipped there.
 */
export function WorkbenchPage({ catalog, renderBlock }: { catalog: Catalog; renderBlock: RenderBlock }) {
  const route = useRoute();
  const runParam = route.name === 'workbench' ? route.params.get('run') : null;
  // A run opened from a lesson's player names that lesson, so the learner can go back to it.
  const fromSlug = route.name === 'workbench' ? route.params.get('from') : null;
  const fromLesson = catalog.lessons.find((l) => l.frontmatter.slug === fromSlug);
  const scenarios = useMemo(() => lessonScenarios(catalog.lessons), [catalog.lessons]);

  const [store] = useState(() =>
    createWorkbenchStore({
      storage: storage(),
      check: checkScenarioText,
      checkFully: (text) => checkOffThread(text, { waitForLua: true }),
      confirm: (question) => window.confirm(question),
    }),
  );
  const s = useStore(store);
  const { current, problems, lastProblems, scenarioOk, stale, lastChecked } = workbenchView(s);
  const { text, running, pendingLink, share } = s;
  const [showPreview, setShowPreview] = useState(false);

  // Work in progress survives a reload; a pause in typing is enough to save it.
  useEffect(() => {
    const timer = setTimeout(() => store.getState().save(), 300);
    return () => clearTimeout(timer);
  }, [text, store]);

  // A share link: load it, but ask before replacing work the learner changed.
  useEffect(() => {
    if (runParam) store.getState().openLink(runParam);
  }, [runParam, store]);

  function forgetLink() {
    window.history.replaceState(null, '', WORKBENCH_HREF);
  }

  const run = () => void store.getState().run();

  // The run on show, read for the scripts that failed in it (a new player brings a new store).
  const unwatchRun = useRef<() => void>(undefined);
  useEffect(() => () => unwatchRun.current?.(), []);
  const watchPlayer = useCallback(
    (ran: string, playerStore: PlayerStore) => {
      unwatchRun.current?.();
      unwatchRun.current = store.getState().watchPlayer(ran, playerStore);
    },
    [store],
  );

  function loadRun(found: { seed: number; actions: RunConfig['actions'] }) {
    store.getState().loadRun(found);
    document.getElementById('workbench-run-title')?.scrollIntoView({ behavior: 'smooth', block: 'start' });
  }

  function makeShareLink() {
    const url = store.getState().makeShareLink(window.location.href.replace(/#.*$/, '') + WORKBENCH_HREF);
    if (url) void navigator.clipboard?.writeText(url).catch(() => undefined);
  }

  function downloadLesson() {
    const file = store.getState().lessonFile(catalog.courses[0]?.id ?? 'redis-locks');
    if (file) downloadText(file.name, file.text, 'text/markdown');
  }

  // The player changes with the run, not with each keystroke: typing re-renders the editor's side only.
  const playerShown = useMemo(
    () =>
      running ? (
        <ScenarioPlayer
          key={running.text}
          scenario={running.scenario}
          embedScenarioInLink
          {...(running.run ? { initialRun: running.run } : {})}
          onStore={(playerStore) => watchPlayer(running.text, playerStore)}
        />
      ) : (
        <p className="muted">Fix the problems above, then press Run scenario.</p>
      ),
    [running, watchPlayer],
  );

  return (
    <div className="workbench">
      <header className="workbench-header">
        <h1 tabIndex={-1}>Workbench</h1>
        <p>
          Write a lock as Redis commands, run it, and watch where it breaks. Problems show as you type; your work is
          kept on this device.
        </p>
        {fromLesson && (
          <p>
            <a href={lessonHref(fromLesson.frontmatter.slug)}>Back to the lesson: {fromLesson.frontmatter.title}</a>
          </p>
        )}
      </header>

      {loadedWorkNotice(s.loaded) && (
        <p className="player-notice" role="alert">
          {loadedWorkNotice(s.loaded)}
        </p>
      )}
      {s.fileProblem && (
        <p className="player-notice" role="alert">
          {s.fileProblem}
        </p>
      )}
      {s.linkProblem && (
        <p className="player-notice" role="alert">
          This share link could not be opened: {s.linkProblem}.
        </p>
      )}
      {pendingLink && (
        <div className="player-notice" role="alert">
          <p>This link holds a shared scenario (“{pendingLink.title}”). Opening it replaces what is in the editor.</p>
          <button
            type="button"
            onClick={() => {
              store.getState().acceptLink();
              forgetLink();
            }}
          >
            Open the shared scenario
          </button>{' '}
          <button
            type="button"
            onClick={() => {
              store.getState().keepWork();
              forgetLink();
            }}
          >
            Keep my work
          </button>
        </div>
      )}

      <div className="workbench-toolbar">
        <label className="workbench-open">
          <span>Start from</span>
          <select
            value=""
            onChange={(e) => {
              const key = e.target.value;
              e.target.value = '';
              const { replaceWork } = store.getState();
              if (key === 'template')
                replaceWork(TEMPLATE, 'Replace your scenario with the template? Your changes will be lost.');
              const found = scenarios.find((s) => s.key === key);
              if (found)
                replaceWork(
                  scenarioYaml(found.scenario, `From the lesson scenario '${found.scenario.id}'.`),
                  `Replace your scenario with “${found.scenario.title}”? Your changes will be lost.`,
                );
            }}
          >
            <option value="">Choose a scenario…</option>
            <option value="template">Template: two baristas, plain DEL</option>
            <optgroup label="Lesson scenarios">
              {scenarios.map((s) => (
                <option key={s.key} value={s.key}>
                  {s.label}
                </option>
              ))}
            </optgroup>
          </select>
        </label>
        <label className="workbench-file">
          <span>or open a .yaml file</span>
          <input
            type="file"
            accept=".yaml,.yml,text/yaml,application/yaml"
            onChange={async (e) => {
              const file = e.target.files?.[0];
              e.target.value = '';
              if (!file) return;
              const read = await readChosenFile(file, MAX_YAML_CHARS, 'a scenario file');
              store.getState().fileRead(read.ok ? { ok: true, text: read.text, name: file.name } : read);
            }}
          />
        </label>
        <button type="button" className="button button-primary" onClick={run} aria-keyshortcuts="Control+Enter">
          Run scenario
        </button>
      </div>

      <div className="workbench-grid">
        <section className="workbench-card workbench-edit" aria-labelledby="workbench-editor-title">
          <h2 id="workbench-editor-title" className="visually-hidden">
            Scenario
          </h2>
          <ScenarioEditor
            value={text}
            onChange={s.edit}
            onChecked={s.answered}
            onRun={run}
            scriptFailures={s.failures}
            onRunProblems={s.setRunProblems}
          />
          <ProblemList problems={lastProblems} checking={current === null} />
          <RunProblemList problems={s.runProblems} />
        </section>

        <aside className="workbench-card workbench-side" aria-label="Share and save">
          <h2>Share and save</h2>
          <div className="workbench-actions">
            <button type="button" className="button button-secondary" onClick={makeShareLink}>
              Copy a share link
            </button>
            <button
              type="button"
              className="button button-secondary"
              onClick={() => downloadText(fileNameFor(lastChecked?.id ?? 'scenario', 'yaml'), text, 'application/yaml')}
            >
              Download .yaml
            </button>
            <button type="button" className="button button-secondary" onClick={downloadLesson} disabled={!scenarioOk}>
              Download as a lesson
            </button>
            <button
              type="button"
              className="button button-quiet"
              onClick={() =>
                store.getState().replaceWork(TEMPLATE, 'Reset to the template? Your scenario will be lost.')
              }
            >
              Reset to template
            </button>
          </div>
          {share && 'url' in share && (
            <label className="workbench-share">
              <span>Share link (copied)</span>
              <input readOnly value={share.url} onFocus={(e) => e.target.select()} />
            </label>
          )}
          {share && 'problem' in share && (
            <p role="alert" className="workbench-warning">
              {share.problem}
            </p>
          )}
          {s.saved === 'off' && (
            <p className="workbench-warning">
              This browser does not let the page store anything: download your scenario before you leave.
            </p>
          )}
          {s.saved === 'full' && (
            <p className="workbench-warning">
              Your browser's storage for this site is full, so this version was not saved: download your scenario before
              you leave, or clear this site's data in the browser's settings to make room.
            </p>
          )}
          <p className="muted">Nothing leaves your browser: a link carries the scenario itself.</p>
        </aside>
      </div>

      <section className="workbench-run" aria-labelledby="workbench-run-title">
        <h2 id="workbench-run-title">Run</h2>
        {stale && !scenarioOk && current && (
          <p className="workbench-stale" role="status">
            Showing the last valid version; fix {problems.length} problem{problems.length === 1 ? '' : 's'} to run this
            one.
          </p>
        )}
        {stale && scenarioOk && (
          <p className="workbench-stale" role="status">
            You changed the scenario: press Run scenario (Ctrl+Enter) to see this version.
          </p>
        )}
        {playerShown}
      </section>

      <section className="workbench-card workbench-break" aria-labelledby="workbench-break-title">
        <h2 id="workbench-break-title">Break it</h2>
        <p className="muted">
          The explorer searches seeds and faults for a run that breaks your lock, keeps the fewest faults that still
          break it, and can load that run into the player above.
        </p>
        <BreakIt
          scenario={scenarioOk ? lastChecked : null}
          invariants={invariantsToBreak(lastChecked)}
          onLoad={loadRun}
        />
      </section>

      <section className="workbench-card" aria-labelledby="workbench-preview-title">
        <h2 id="workbench-preview-title">For instructors: preview a lesson</h2>
        {showPreview ? (
          <Loaded
            load={loadLessonPreview}
            name="the lesson reader"
            loading={<p aria-busy="true">Loading the lesson reader…</p>}
            render={(LessonPreview) => (
              <LessonPreview lessons={catalog.lessons} courses={catalog.courses} renderBlock={renderBlock} />
            )}
          />
        ) : (
          <>
            <p className="muted">
              Paste or open a lesson file to see it as a learner will, with its problems listed. Nothing leaves your
              browser.
            </p>
            <button type="button" className="button button-secondary" onClick={() => setShowPreview(true)}>
              Preview a lesson file
            </button>
          </>
        )}
      </section>
    </div>
  );
}
