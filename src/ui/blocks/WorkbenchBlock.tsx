import { useEffect, useRef, useState } from 'react';
import type { Verdict } from '../../check/verdict';
import { WORKBENCH_EXPLORER_SEED, type WorkbenchSpec } from '../../lessons/blocks/workbench';
import type { ScenarioResult } from '../../scenario/text/parse';
import type { Scenario } from '../../scenario/schema/schema';
import { BreakIt } from '../explorer/BreakIt';
import { invariantsToBreak } from '../explorer/invariantChoices';
import type { SearchOutcome } from '../explorer/coordinator';
import type { PlayerStore } from '../player/playerStore';
import type { RunConfig } from '../player/runModel';
import { ScenarioPlayer } from '../player/ScenarioPlayer';
import { checkScenarioText } from '../workbench/checkScenarioText';
import { ProblemList } from '../workbench/ProblemList';
import { ScenarioEditor } from '../workbench/ScenarioEditor';
import { HandIn } from './HandIn';
import { fixedState, loadBlockWork, saveBlockWork } from './workbenchBlockModel';
import '../workbench/workbench.css';

function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

interface Props {
  spec: WorkbenchSpec;
  /** `<lesson slug>/<block id>`: where the learner's edit is kept. */
  storageKey: string;
  /** Which lesson and block a submission is for (the Hand in button). */
  lesson: string;
  block: string;
  onWatched?: () => void;
}

/**
 * A workbench inside a lesson: the editor starts from the lesson's buggy recipe; the learner runs
 * it, lets Break it find the run that breaks the lesson's invariant, then edits until the block
 * says Fixed: the edit passes its own checks and the explorer finds no break within the budget.
 * The edit is kept on this device under the lesson and block.
 */
export function WorkbenchBlock({ spec, storageKey, lesson, block, onWatched }: Props) {
  const [text, setText] = useState(() => loadBlockWork(storage(), storageKey) ?? spec.text);
  const [checked, setChecked] = useState<{ text: string; result: ScenarioResult }>(() => ({
    text,
    result: checkScenarioText(text),
  }));
  const [running, setRunning] = useState<{ text: string; scenario: Scenario; run?: RunConfig } | null>(null);
  const [store, setStore] = useState<{ text: string; store: PlayerStore } | null>(null);
  const [search, setSearch] = useState<{ scenario: Scenario; outcome: SearchOutcome } | null>(null);
  const [verdicts, setVerdicts] = useState<readonly Verdict[]>([]);
  const title = useRef(`workbench-${storageKey.replace(/[^\w-]/g, '-')}`);

  useEffect(() => {
    const timer = setTimeout(() => saveBlockWork(storage(), storageKey, text === spec.text ? null : text), 300);
    return () => clearTimeout(timer);
  }, [text, storageKey, spec.text]);

  // The verdicts of the run on show, for the Fixed check (the run must be of the text in the editor).
  useEffect(() => {
    if (!store) return;
    setVerdicts(store.store.getState().verdicts);
    return store.store.subscribe((s) => setVerdicts(s.verdicts));
  }, [store]);

  const current = checked.text === text ? checked.result : null;
  const scenario = current?.ok ? current.scenario : null;
  const problems = current && !current.ok ? current.diagnostics : [];
  const showing =
    running && store && store.text === running.text && running.text === text && !running.run ? verdicts : null;
  const fixed = fixedState(scenario, search, showing, spec);

  // A search that found nothing needs the quiet run's verdicts too: run the text if it is not on show.
  useEffect(() => {
    if (
      search?.outcome.state === 'not-found' &&
      scenario &&
      running?.text !== text &&
      JSON.stringify(search.scenario) === JSON.stringify(scenario)
    )
      setRunning({ text, scenario });
  }, [search, scenario, running, text]);

  // The host may pass a new callback on every render; only the change to Fixed calls it.
  const watched = useRef(onWatched);
  useEffect(() => {
    watched.current = onWatched;
  }, [onWatched]);
  useEffect(() => {
    if (fixed.state === 'fixed') watched.current?.();
  }, [fixed.state]);

  function run() {
    const result = checkScenarioText(text);
    setChecked({ text, result });
    if (result.ok) setRunning({ text, scenario: result.scenario });
  }

  function reset() {
    if (text !== spec.text && !window.confirm('Start over from the lesson’s recipe? Your changes will be lost.'))
      return;
    setText(spec.text);
    setChecked({ text: spec.text, result: checkScenarioText(spec.text) });
    setSearch(null);
  }

  return (
    <section className="block workbench-block" aria-labelledby={title.current}>
      <h3 id={title.current} className="workbench-block-title">
        Workbench: {spec.scenario.title}
      </h3>
      <div className="workbench-edit">
        <ScenarioEditor
          value={text}
          onChange={setText}
          onChecked={(t, result) => setChecked({ text: t, result })}
          onRun={run}
        />
        <ProblemList problems={problems} checking={current === null} />
      </div>
      <div className="workbench-block-actions">
        <button type="button" className="button button-primary" onClick={run} aria-keyshortcuts="Control+Enter">
          Run scenario
        </button>
        <button type="button" className="button button-quiet" onClick={reset}>
          Start over from the recipe
        </button>
      </div>
      {running && (
        <ScenarioPlayer
          key={`${running.text}#${JSON.stringify(running.run ?? null)}`}
          scenario={running.scenario}
          {...(running.run ? { initialRun: running.run } : {})}
          onStore={(s) => setStore({ text: running.text, store: s })}
        />
      )}
      <div className="workbench-block-break">
        <h4>Break it</h4>
        <BreakIt
          scenario={scenario}
          // The block's own invariant first (only a search for it can make the block Fixed), then
          // every other, for a lesson that asks the learner to try them in turn.
          invariants={[spec.break, ...invariantsToBreak(scenario).filter((name) => name !== spec.break)]}
          budget={spec.runs}
          explorerSeed={WORKBENCH_EXPLORER_SEED}
          onLoad={(found) =>
            scenario &&
            setRunning({
              text,
              scenario,
              run: { seed: found.seed, fencing: scenario.resource.fencing, actions: found.actions },
            })
          }
          onOutcome={(outcome, searched) =>
            searched.invariant === spec.break && setSearch({ scenario: searched.scenario, outcome })
          }
        />
      </div>
      <p className={`workbench-block-verdict workbench-block-${fixed.state}`} role="status">
        {fixed.text}
      </p>
      <HandIn lesson={lesson} block={block} recipe={text} claimed={fixed.state} />
    </section>
  );
}
