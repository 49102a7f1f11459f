import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { Catalog } from '../../lessons/types';
import type { RenderBlock } from './LessonPreview';
import type { ScenarioResult } from '../../scenario/text/parse';
import type { Scenario } from '../../scenario/schema/schema';
import type { Diagnostic } from '../../scenario/diagnostic';
import { downloadText } from '../blocks/download';
import { BreakIt } from '../explorer/BreakIt';
import { invariantsToBreak } from '../explorer/invariantChoices';
import { Loaded, loader } from '../layout/loader';
import type { PlayerStore } from '../player/playerStore';
import type { RunConfig } from '../player/runModel';
import { ScenarioPlayer } from '../player/ScenarioPlayer';
import { decodeRun, encodeRun, shareUrl } from '../player/shareLink';
import { lessonHref, WORKBENCH_HREF } from '../routing/route';
import { useRoute } from '../routing/useRoute';
import { checkOffThread } from './checkOffThread';
import { checkScenarioText } from './checkScenarioText';
import { ProblemList, RunProblemList } from './ProblemList';
import { scriptFailures, type ScriptFailure } from '../../scenario/running/scriptFailures';
import { ScenarioEditor } from './ScenarioEditor';
import { MAX_YAML_CHARS } from '../../scenario/text/inputBounds';
import { readChosenFile } from '../files/readChosenFile';
import { fileNameFor, lessonScenarios, lessonSkeleton, loadedWorkNotice, loadWork, runAsScenarioYaml, saveWork, scenarioYaml, TEMPLATE } from './workbenchModel';
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
 * replaces the run on show: the player keeps the last valid version and says so.
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

  const [loaded] = useState(() => loadWork(storage()));
  const [text, setText] = useState(() => loaded.text ?? TEMPLATE);
  const [checked, setChecked] = useState<{ text: string; result: ScenarioResult }>(() => ({ text, result: checkScenarioText(text) }));
  const [running, setRunning] = useState<{ text: string; scenario: Scenario; run?: RunConfig } | null>(() => (checked.result.ok ? { text, scenario: checked.result.scenario } : null));
  const [pendingLink, setPendingLink] = useState<{ text: string; title: string } | null>(null);
  const [linkProblem, setLinkProblem] = useState<string | null>(null);
  const [fileProblem, setFileProblem] = useState<string | null>(null);
  const [share, setShare] = useState<{ url: string } | { problem: string } | null>(null);
  const [saved, setSaved] = useState<'saved' | 'full' | 'off'>('saved');
  const [showPreview, setShowPreview] = useState(false);
  const lastLoaded = useRef(text);
  const [failures, setFailures] = useState<ScriptFailure[]>([]);
  const [runProblems, setRunProblems] = useState<Diagnostic[]>([]);
  const unwatchRun = useRef<() => void>(undefined);
  // The player's store, for the run it shows (a share link and a lesson download carry it).
  const player = useRef<{ text: string; store: PlayerStore } | null>(null);

  // Work in progress survives a reload; a pause in typing is enough to save it.
  useEffect(() => {
    const timer = setTimeout(() => setSaved(saveWork(storage(), text)), 300);
    return () => clearTimeout(timer);
  }, [text]);

  // A share link: load it, but ask before replacing work the learner changed.
  useEffect(() => {
    if (!runParam) return;
    const decoded = decodeRun(runParam);
    if (!decoded.ok || !decoded.run.scenario) {
      setLinkProblem(decoded.ok ? 'this link holds a lesson run, not a workbench scenario' : decoded.message);
      return;
    }
    const linked = scenarioYaml(decoded.run.scenario, 'Opened from a share link (links carry the scenario, not its comments).', decoded.run.config);
    if (linked === text) return;
    if (text === TEMPLATE || text === lastLoaded.current) load(linked);
    else setPendingLink({ text: linked, title: decoded.run.scenario.title });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [runParam]);

  const current = checked.text === text ? checked.result : null;
  const problems = current && !current.ok ? current.diagnostics : [];
  // What the list under the editor shows: the last check's problems, until this text's check answers.
  const lastProblems = checked.result.ok ? [] : checked.result.diagnostics;

  function load(next: string) {
    lastLoaded.current = next;
    setText(next);
    const result = checkScenarioText(next);
    setChecked({ text: next, result });
    if (result.ok) setRunning({ text: next, scenario: result.scenario });
  }

  function forgetLink() {
    setPendingLink(null);
    window.history.replaceState(null, '', WORKBENCH_HREF);
  }

  function replaceWork(next: string, question: string) {
    if (text !== lastLoaded.current && text !== next && !window.confirm(question)) return;
    load(next);
  }

  // Checked off the page's thread, with the scripts compiled: a script that does not compile is no run.
  async function run() {
    const ran = text;
    const result = await checkOffThread(ran, { waitForLua: true });
    setChecked({ text: ran, result });
    if (result.ok) setRunning({ text: ran, scenario: result.scenario });
  }

  // The run on show, read for the scripts that failed in it (a new player brings a new store).
  const watchRun = useCallback((store: PlayerStore) => {
    unwatchRun.current?.();
    setFailures(scriptFailures(store.getState().events));
    unwatchRun.current = store.subscribe((s, before) => {
      if (s.events !== before.events) setFailures(scriptFailures(s.events));
    });
  }, []);
  useEffect(() => () => unwatchRun.current?.(), []);

  function valid(): Scenario | null {
    const result = current ?? checkScenarioText(text);
    return result.ok ? result.scenario : null;
  }

  /** The run the player shows for the editor's text (a loaded counterexample included), if it shows this text. */
  function playerRun(): { config: RunConfig; store: PlayerStore } | null {
    const p = player.current;
    return p && p.text === text ? { config: p.store.getState().config, store: p.store } : null;
  }

  /** Loads a run Break it found into the player, running the editor's text first if the player shows another version. */
  function loadRun(run: { seed: number; actions: RunConfig['actions'] }) {
    const scenario = valid();
    if (!scenario) return;
    const config: RunConfig = { seed: run.seed, fencing: scenario.resource.fencing, actions: run.actions };
    const p = player.current;
    if (p && p.text === text && running?.text === text) p.store.getState().load(config);
    else setRunning({ text, scenario, run: config });
    document.getElementById('workbench-run-title')?.scrollIntoView({ behavior: 'smooth', block: 'start' });
  }

  function makeShareLink() {
    const scenario = valid();
    if (!scenario) {
      setShare({ problem: `Fix the ${problems.length || 'listed'} problem${problems.length === 1 ? '' : 's'} first: a link carries a valid scenario.` });
      return;
    }
    try {
      // A run loaded in the player (a counterexample) travels with the link.
      const config = playerRun()?.config ?? { seed: scenario.seed, fencing: scenario.resource.fencing, actions: [] };
      const encoded = encodeRun({ scenarioId: scenario.id, config, scenario });
      const url = shareUrl(window.location.href.replace(/#.*$/, '') + WORKBENCH_HREF, encoded);
      setShare({ url });
      void navigator.clipboard?.writeText(url).catch(() => undefined);
    } catch (error) {
      setShare({ problem: error instanceof Error ? error.message : String(error) });
    }
  }

  function downloadLesson() {
    const scenario = valid();
    if (!scenario) return;
    const course = catalog.courses[0]?.id ?? 'redis-locks';
    // A run loaded in the player (a counterexample Break it found) becomes the lesson's scenario:
    // its faults as script steps, its seed, and what it breaks as the lesson's expect.
    const run = playerRun();
    const changed = run && (run.config.actions.length > 0 || run.config.seed !== scenario.seed || run.config.fencing !== scenario.resource.fencing);
    const body = changed ? runAsScenarioYaml(scenario, run.config, run.store.getState().verdicts) : text;
    downloadText(fileNameFor(scenario.id, 'md'), lessonSkeleton(body, scenario, course), 'text/markdown');
  }

  // The player changes with the run, not with each keystroke: typing re-renders the editor's side only.
  const playerShown = useMemo(
    () =>
      running ? (
        <ScenarioPlayer key={running.text} scenario={running.scenario} embedScenarioInLink {...(running.run ? { initialRun: running.run } : {})} onStore={(store) => {
            player.current = { text: running.text, store };
            watchRun(store);
          }}
        />
      ) : (
        <p className="muted">Fix the problems above, then press Run scenario.</p>
      ),
    [running, watchRun],
  );

  const stale = running !== null && running.text !== text;
  const scenarioOk = current?.ok ?? false;
  // What renders on every keystroke reads the last check, never parses: the text is parsed in the worker.
  const lastChecked = checked.result.ok ? checked.result.scenario : null;

  return (
    <div className="workbench">
      <header className="workbench-header">
        <h1 tabIndex={-1}>Workbench</h1>
        <p>Write a lock as Redis commands, run it, and watch where it breaks. Problems show as you type; your work is kept on this device.</p>
        {fromLesson && (
          <p>
            <a href={lessonHref(fromLesson.frontmatter.slug)}>Back to the lesson: {fromLesson.frontmatter.title}</a>
          </p>
        )}
      </header>

      {loadedWorkNotice(loaded) && (
        <p className="player-notice" role="alert">
          {loadedWorkNotice(loaded)}
        </p>
      )}
      {fileProblem && (
        <p className="player-notice" role="alert">
          {fileProblem}
        </p>
      )}
      {linkProblem && (
        <p className="player-notice" role="alert">
          This share link could not be opened: {linkProblem}.
        </p>
      )}
      {pendingLink && (
        <div className="player-notice" role="alert">
          <p>This link holds a shared scenario (“{pendingLink.title}”). Opening it replaces what is in the editor.</p>
          <button type="button" onClick={() => { load(pendingLink.text); forgetLink(); }}>
            Open the shared scenario
          </button>{' '}
          <button type="button" onClick={forgetLink}>
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
              if (key === 'template') replaceWork(TEMPLATE, 'Replace your scenario with the template? Your changes will be lost.');
              const found = scenarios.find((s) => s.key === key);
              if (found) replaceWork(scenarioYaml(found.scenario, `From the lesson scenario '${found.scenario.id}'.`), `Replace your scenario with “${found.scenario.title}”? Your changes will be lost.`);
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
              setFileProblem(read.ok ? null : read.message);
              if (read.ok) replaceWork(read.text, `Replace your scenario with ${file.name}? Your changes will be lost.`);
            }}
          />
        </label>
        <button type="button" className="button button-primary" onClick={() => void run()} aria-keyshortcuts="Control+Enter">
          Run scenario
        </button>
      </div>

      <div className="workbench-grid">
        <section className="workbench-card workbench-edit" aria-labelledby="workbench-editor-title">
          <h2 id="workbench-editor-title" className="visually-hidden">
            Scenario
          </h2>
          <ScenarioEditor value={text} onChange={setText} onChecked={(t, result) => setChecked({ text: t, result })} onRun={() => void run()} scriptFailures={failures} onRunProblems={setRunProblems} />
          <ProblemList problems={lastProblems} checking={current === null} />
          <RunProblemList problems={runProblems} />
        </section>

        <aside className="workbench-card workbench-side" aria-label="Share and save">
          <h2>Share and save</h2>
          <div className="workbench-actions">
            <button type="button" className="button button-secondary" onClick={makeShareLink}>
              Copy a share link
            </button>
            <button type="button" className="button button-secondary" onClick={() => downloadText(fileNameFor(valid()?.id ?? 'scenario', 'yaml'), text, 'application/yaml')}>
              Download .yaml
            </button>
            <button type="button" className="button button-secondary" onClick={downloadLesson} disabled={!scenarioOk}>
              Download as a lesson
            </button>
            <button type="button" className="button button-quiet" onClick={() => replaceWork(TEMPLATE, 'Reset to the template? Your scenario will be lost.')}>
              Reset to template
            </button>
          </div>
          {share && 'url' in share && (
            <label className="workbench-share">
              <span>Share link (copied)</span>
              <input readOnly value={share.url} onFocus={(e) => e.target.select()} />
            </label>
          )}
          {share && 'problem' in share && <p role="alert" className="workbench-warning">{share.problem}</p>}
          {saved === 'off' && <p className="workbench-warning">This browser does not let the page store anything: download your scenario before you leave.</p>}
          {saved === 'full' && <p className="workbench-warning">Your browser's storage for this site is full, so this version was not saved: download your scenario before you leave, or clear this site's data in the browser's settings to make room.</p>}
          <p className="muted">Nothing leaves your browser: a link carries the scenario itself.</p>
        </aside>
      </div>

      <section className="workbench-run" aria-labelledby="workbench-run-title">
        <h2 id="workbench-run-title">Run</h2>
        {stale && !scenarioOk && current && (
          <p className="workbench-stale" role="status">
            Showing the last valid version; fix {problems.length} problem{problems.length === 1 ? '' : 's'} to run this one.
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
        <p className="muted">The explorer searches seeds and faults for a run that breaks your lock, keeps the fewest faults that still break it, and can load that run into the player above.</p>
        <BreakIt scenario={scenarioOk ? lastChecked : null} invariants={invariantsToBreak(lastChecked)} onLoad={loadRun} />
      </section>

      <section className="workbench-card" aria-labelledby="workbench-preview-title">
        <h2 id="workbench-preview-title">For instructors: preview a lesson</h2>
        {showPreview ? (
          <Loaded
            load={loadLessonPreview}
            name="the lesson reader"
            loading={<p aria-busy="true">Loading the lesson reader…</p>}
            render={(LessonPreview) => <LessonPreview lessons={catalog.lessons} courses={catalog.courses} renderBlock={renderBlock} />}
          />
        ) : (
          <>
            <p className="muted">Paste or open a lesson file to see it as a learner will, with its problems listed. Nothing leaves your browser.</p>
            <button type="button" className="button button-secondary" onClick={() => setShowPreview(true)}>
              Preview a lesson file
            </button>
          </>
        )}
      </section>
    </div>
  );
}
