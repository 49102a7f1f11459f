import { useEffect, useId, useRef, useState } from 'react';
import type { ExhaustiveProgress } from '../../check/exhaustiveSearch';
import type { FaultAction, FaultKind } from '../../check/faults';
import type { InvariantName, Scenario } from '../../scenario/schema/schema';
import { describeFault } from '../../scenario/text/describeFault';
import { startExhaustive, type ExhaustiveOutcome, type ExhaustiveSearchHandle } from './exhaustiveCoordinator';
import { pageExplorerPool } from './pagePool';
import type { ExplorerPool } from './pool';
import { exhaustiveText } from './searchTexts';

export interface ExhaustivePanelProps {
  scenario: Scenario | null;
  invariant: InvariantName | undefined;
  kinds?: readonly FaultKind[];
  onLoad: (run: { seed: number; actions: FaultAction[] }) => void;
  autoLoad?: boolean;
  pool?: ExplorerPool;
}

/** The grid steps a learner may pick: finer finds more, coarser finishes sooner. */
const GRIDS_MS = [100, 250, 500, 1000] as const;
/** Runs an exhaustive search may make before it stops and says how far it got. */
const DEFAULT_MAX_RUNS = 20_000;

type Phase =
  | { name: 'idle' }
  | { name: 'searching'; progress: ExhaustiveProgress | null; elapsedMs: number }
  | { name: 'done'; outcome: ExhaustiveOutcome; invariant: InvariantName };

/**
 * "Every schedule up to K faults": the exhaustive search, beside the random one. It tries every
 * schedule within the bounds the learner sets (K, the grid), breadth-first, on every worker, and
 * ends with the break with the fewest faults or a claim bounded by exactly what it tried.
 */
export function ExhaustivePanel(props: ExhaustivePanelProps) {
  const { scenario, invariant, onLoad } = props;
  const id = useId();
  const [maxFaults, setMaxFaults] = useState(1);
  const [gridMs, setGridMs] = useState<number>(GRIDS_MS[0]);
  const [maxRuns, setMaxRuns] = useState(DEFAULT_MAX_RUNS);
  const [phase, setPhase] = useState<Phase>({ name: 'idle' });
  const running = useRef<ExhaustiveSearchHandle | null>(null);
  useEffect(() => () => running.current?.stop(), []);

  const start = () => {
    if (!scenario || !invariant || running.current) return;
    setPhase({ name: 'searching', progress: null, elapsedMs: 0 });
    const job = {
      scenario,
      options: { invariant, maxFaults, bounds: { gridMs, ...(props.kinds ? { kinds: props.kinds } : {}) } },
    };
    const search = startExhaustive(props.pool ?? pageExplorerPool(), job, (progress, elapsedMs) => {
      if (running.current !== search) return;
      setPhase({ name: 'searching', progress, elapsedMs });
      if (progress.ran >= maxRuns) search.stop();
    });
    running.current = search;
    void search.outcome.then((outcome) => {
      if (running.current !== search) return;
      running.current = null;
      setPhase({ name: 'done', outcome, invariant });
      if (outcome.state === 'done' && outcome.result.found && props.autoLoad)
        onLoad({ seed: outcome.result.seed, actions: outcome.result.actions });
    });
  };
  const searching = phase.name === 'searching';

  return (
    <>
      <div className="break-it-form">
        <label htmlFor={`${id}-k`}>Faults (K)</label>
        <select
          id={`${id}-k`}
          value={maxFaults}
          onChange={(e) => setMaxFaults(Number(e.target.value))}
          disabled={searching}
        >
          {[1, 2, 3].map((k) => (
            <option key={k} value={k}>
              up to {k}
            </option>
          ))}
        </select>
        <label htmlFor={`${id}-grid`}>Grid step</label>
        <select
          id={`${id}-grid`}
          value={gridMs}
          onChange={(e) => setGridMs(Number(e.target.value))}
          disabled={searching}
        >
          {GRIDS_MS.map((ms) => (
            <option key={ms} value={ms}>
              {ms} ms
            </option>
          ))}
        </select>
        <label htmlFor={`${id}-runs`}>Budget (runs)</label>
        <input
          id={`${id}-runs`}
          type="number"
          min={1}
          max={1_000_000}
          step={1000}
          value={maxRuns}
          onChange={(e) => setMaxRuns(Math.min(1_000_000, Math.max(1, Number(e.target.value) || 1)))}
          disabled={searching}
        />
        {searching ? (
          <button type="button" className="button button-secondary" onClick={() => running.current?.stop()}>
            Stop
          </button>
        ) : (
          <button type="button" className="button button-primary" onClick={start} disabled={!scenario || !invariant}>
            Try every schedule
          </button>
        )}
      </div>
      {searching && <Progress {...phase} />}
      {phase.name === 'done' && (
        <Outcome outcome={phase.outcome} invariant={phase.invariant} onLoad={props.autoLoad ? undefined : onLoad} />
      )}
      {phase.name === 'idle' && scenario && (
        <p className="muted">
          Tries the scenario as written, then every single fault, then every pair and triple up to K: each kind that
          applies, at every step of the grid over the time the scenario acts, with pauses of 0.5–20 s, outages of 1 and
          5 s and clock jumps of ±10 s, on every process. The first break it finds has the fewest faults there are; when
          it finds none, it says exactly what it covered.
        </p>
      )}
    </>
  );
}

function Progress({ progress, elapsedMs }: { progress: ExhaustiveProgress | null; elapsedMs: number }) {
  const done = progress?.done ?? 0;
  const total = progress?.total ?? 0;
  const rate = elapsedMs > 0 && progress ? (progress.ran / elapsedMs) * 1000 : 0;
  const leftS = rate > 0 && progress ? Math.ceil(((total - done) * (progress.ran / Math.max(1, done))) / rate) : null;
  return (
    <div className="break-it-progress">
      <progress max={Math.max(1, total)} value={done} aria-label="Schedules covered" />
      <span role="status">
        {done.toLocaleString('en')} / {total.toLocaleString('en')} schedules · {Math.round(rate).toLocaleString('en')}{' '}
        runs/s{leftS === null ? '' : ` · about ${leftS.toLocaleString('en')} s left`}
      </span>
    </div>
  );
}

function Outcome({
  outcome,
  invariant,
  onLoad,
}: {
  outcome: ExhaustiveOutcome;
  invariant: InvariantName;
  onLoad: ExhaustivePanelProps['onLoad'] | undefined;
}) {
  const name = invariant.replace(/-/g, ' ');
  if (outcome.state === 'failed') {
    return (
      <p role="alert" className="break-it-notice">
        The search did not finish: {outcome.message}.
      </p>
    );
  }
  if (outcome.state === 'stopped') {
    const p = outcome.progress;
    return (
      <p role="status">
        Stopped after {(p?.done ?? 0).toLocaleString('en')} of {(p?.total ?? 0).toLocaleString('en')} schedules, with no
        break among them: no claim about the rest.
      </p>
    );
  }
  const { result } = outcome;
  return (
    <div className={result.found ? 'break-it-found' : undefined}>
      <p role="status">{exhaustiveText(result, name)}</p>
      {result.faults.length > 0 && (
        <ol aria-label="Fewest faults">
          {result.faults.map((f, i) => (
            <li key={i}>{describeFault(f)}</li>
          ))}
        </ol>
      )}
      {result.verdict && <p className="muted">{result.verdict.explanation}</p>}
      {result.found && onLoad && (
        <button
          type="button"
          className="button button-secondary"
          onClick={() => onLoad({ seed: result.seed, actions: result.actions })}
        >
          Load into the player
        </button>
      )}
    </div>
  );
}
