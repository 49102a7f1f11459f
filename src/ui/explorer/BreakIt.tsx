import { useEffect, useId, useRef, useState } from 'react';
import type { FaultAction, FaultKind } from '../../check/faults';
import type { InvariantName, Scenario } from '../../scenario/schema/schema';
import { startSearch, type ExplorerSearch, type SearchOutcome } from './coordinator';
import { describeFault } from '../../scenario/text/describeFault';
import { ExhaustivePanel } from './ExhaustivePanel';
import { foundText, notFoundText } from './searchTexts';
import { protectionNote } from './protectionNote';
import { pageExplorerPool } from './pagePool';
import type { ExplorerPool } from './pool';
import './breakIt.css';

export interface BreakItProps {
  /** The scenario to search, as it runs (fencing applied); null while the edit is invalid. */
  scenario: Scenario | null;
  /** The invariants the learner may hunt; the first is chosen unless `invariant` says otherwise. */
  invariants: readonly InvariantName[];
  invariant?: InvariantName;
  /** Runs per search, the scenario as written included. */
  budget?: number;
  /** The fault kinds to try (default: every kind that applies to the scenario). */
  kinds?: readonly FaultKind[];
  explorerSeed?: number;
  /** What the start button says. */
  actionLabel?: string;
  /** Loads a found run into the player (as the learner's own actions). */
  onLoad: (run: { seed: number; actions: FaultAction[] }) => void;
  /** Load the run as soon as it is found, instead of offering a button. */
  autoLoad?: boolean;
  /** Every search that ran to its end, with the scenario and invariant it searched. */
  onOutcome?: (outcome: SearchOutcome, searched: { scenario: Scenario; invariant: InvariantName }) => void;
  /** The workers (the page's pool unless a bench or test passes its own). */
  pool?: ExplorerPool;
}

export const DEFAULT_BUDGET = 2000;

type Phase =
  | { name: 'idle' }
  | { name: 'searching'; runsDone: number; budget: number; elapsedMs: number }
  | { name: 'done'; outcome: SearchOutcome; invariant: InvariantName; scenario: Scenario };

/**
 * "Break it": searches seeds and fault schedules of the scenario for a run that breaks the
 * chosen invariant, in the explorer's workers, with a progress bar and Stop. A run it finds is
 * shrunk to the fewest faults, listed as sentences, and loaded into the player on request.
 * When nothing is found it says exactly what was searched: a search can miss a bug.
 */
export function BreakIt(props: BreakItProps) {
  const { scenario, invariants, onLoad } = props;
  const id = useId();
  const [choice, setChoice] = useState<InvariantName | undefined>(props.invariant);
  const [budget, setBudget] = useState(props.budget ?? DEFAULT_BUDGET);
  const [phase, setPhase] = useState<Phase>({ name: 'idle' });
  const [mode, setMode] = useState<'random' | 'exhaustive'>('random');
  const [notices, setNotices] = useState<string[]>([]);
  const running = useRef<ExplorerSearch | null>(null);
  const invariant = choice !== undefined && invariants.includes(choice) ? choice : invariants[0];

  // A search still going when the panel goes away is stopped: nobody would see its answer.
  useEffect(() => () => running.current?.stop(), []);

  const start = () => {
    if (!scenario || !invariant || running.current) return;
    const runs = Math.max(1, Math.round(budget));
    setNotices([]);
    setPhase({ name: 'searching', runsDone: 0, budget: runs, elapsedMs: 0 });
    const search = startSearch(
      props.pool ?? pageExplorerPool(),
      {
        scenario,
        options: {
          invariant,
          ...(props.kinds ? { kinds: props.kinds } : {}),
          ...(props.explorerSeed === undefined ? {} : { explorerSeed: props.explorerSeed }),
        },
      },
      {
        budget: runs,
        onProgress: (p) => running.current === search && setPhase({ name: 'searching', ...p }),
        onNotice: (message) => running.current === search && setNotices((n) => [...n, message]),
      },
    );
    running.current = search;
    void search.outcome.then((outcome) => {
      if (running.current !== search) return;
      running.current = null;
      setPhase({ name: 'done', outcome, invariant, scenario });
      if (outcome.state === 'found' && props.autoLoad)
        onLoad({ seed: outcome.result.seed, actions: outcome.result.actions });
      if (outcome.state === 'found' || outcome.state === 'not-found')
        props.onOutcome?.(outcome, { scenario, invariant });
    });
  };

  const stop = () => running.current?.stop();
  const searching = phase.name === 'searching';

  const chooser = (
    <>
      <label htmlFor={`${id}-invariant`}>Break</label>
      <select
        id={`${id}-invariant`}
        value={invariant ?? ''}
        onChange={(e) => setChoice(e.target.value as InvariantName)}
        disabled={searching || invariants.length === 0}
      >
        {invariants.map((name) => (
          <option key={name} value={name}>
            {name.replace(/-/g, ' ')}
          </option>
        ))}
      </select>
      <label htmlFor={`${id}-mode`}>Search</label>
      <select
        id={`${id}-mode`}
        value={mode}
        onChange={(e) => setMode(e.target.value as typeof mode)}
        disabled={searching}
      >
        <option value="random">Random runs</option>
        <option value="exhaustive">Every schedule up to K faults</option>
      </select>
    </>
  );

  if (mode === 'exhaustive') {
    return (
      <div className="break-it">
        <div className="break-it-form">{chooser}</div>
        {!scenario && (
          <p className="muted">Fix the scenario's problems first: the explorer searches a valid scenario.</p>
        )}
        <ExhaustivePanel
          scenario={scenario}
          invariant={invariant}
          onLoad={onLoad}
          {...(props.kinds ? { kinds: props.kinds } : {})}
          {...(props.autoLoad ? { autoLoad: true } : {})}
          {...(props.pool ? { pool: props.pool } : {})}
        />
      </div>
    );
  }

  return (
    <div className="break-it">
      <div className="break-it-form">
        {chooser}
        <label htmlFor={`${id}-budget`}>Budget (runs)</label>
        <input
          id={`${id}-budget`}
          type="number"
          min={1}
          max={100_000}
          step={100}
          value={budget}
          onChange={(e) => setBudget(Math.min(100_000, Math.max(1, Number(e.target.value) || 1)))}
          disabled={searching}
        />
        {searching ? (
          <button type="button" className="button button-secondary" onClick={stop}>
            Stop
          </button>
        ) : (
          <button type="button" className="button button-primary" onClick={start} disabled={!scenario || !invariant}>
            {props.actionLabel ?? 'Break it'}
          </button>
        )}
      </div>
      {searching && <SearchProgressBar {...phase} />}
      {notices.map((n) => (
        <p key={n} className="break-it-notice" role="alert">
          {n}
        </p>
      ))}
      {!scenario && <p className="muted">Fix the scenario's problems first: the explorer searches a valid scenario.</p>}
      {phase.name === 'done' && <Outcome {...phase} current={scenario} onLoad={props.autoLoad ? undefined : onLoad} />}
      {phase.name === 'idle' && scenario && (
        <p className="muted">
          Tries the scenario as written, then other seeds with pauses, crashes, restarts, partitions, clock jumps,
          failovers and lost messages (those that apply), and keeps the fewest faults that still break it.
        </p>
      )}
    </div>
  );
}

function SearchProgressBar({ runsDone, budget, elapsedMs }: { runsDone: number; budget: number; elapsedMs: number }) {
  const rate = elapsedMs > 0 ? Math.round((runsDone / elapsedMs) * 1000) : 0;
  return (
    <div className="break-it-progress">
      <progress max={budget} value={runsDone} aria-label="Runs searched" />
      <span role="status">
        {runsDone.toLocaleString('en')} / {budget.toLocaleString('en')} runs · {rate.toLocaleString('en')} runs/s
      </span>
    </div>
  );
}

function Outcome({
  outcome,
  invariant,
  scenario,
  current,
  onLoad,
}: Extract<Phase, { name: 'done' }> & { current: Scenario | null; onLoad: BreakItProps['onLoad'] | undefined }) {
  const name = invariant.replace(/-/g, ' ');
  const changed = current !== null && JSON.stringify(current) !== JSON.stringify(scenario);
  const note = changed ? (
    <p className="muted">You changed the scenario since this search: press the button again to search this version.</p>
  ) : null;
  const hint = protectionNote(scenario, invariant);
  switch (outcome.state) {
    case 'stopped':
      return (
        <p role="status">Stopped after {outcome.runsDone.toLocaleString('en')} runs; nothing was found before that.</p>
      );
    case 'failed':
      return (
        <p role="alert" className="break-it-notice">
          The search did not finish: {outcome.message}.
        </p>
      );
    case 'not-found':
      return (
        <>
          <p role="status">{notFoundText(outcome.result, name)}</p>
          {note}
        </>
      );
    case 'found':
      return (
        <div className="break-it-found">
          <p role="status">{foundText(outcome.result, name)}</p>
          {outcome.result.faults.length > 0 && (
            <ol aria-label="Fewest faults">
              {outcome.result.faults.map((f, i) => (
                <li key={i}>{describeFault(f)}</li>
              ))}
            </ol>
          )}
          {outcome.result.verdict && <p className="muted">{outcome.result.verdict.explanation}</p>}
          {hint && <p className="break-it-hint">{hint}</p>}
          {onLoad && !changed && (
            <button
              type="button"
              className="button button-secondary"
              onClick={() => onLoad({ seed: outcome.result.seed, actions: outcome.result.actions })}
            >
              Load into the player
            </button>
          )}
          {note}
        </div>
      );
  }
}
