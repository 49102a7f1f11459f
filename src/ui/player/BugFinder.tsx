import { useEffect, useId, useRef, useState } from 'react';
import { useStore } from 'zustand';
import { FAULT_KINDS } from '../../check/explorer';
import { INVARIANTS, type InvariantName } from '../../scenario/invariants';
import { formatMs } from '../../sim/time';
import type { PlayerStore } from './playerStore';

/** Schedules to try before saying none broke the invariant, in chunks of CHUNK_RUNS. */
const SEARCH_RUNS = 300;
const CHUNK_RUNS = 50;

type Search = { state: 'idle' } | { state: 'searching'; tried: number } | { state: 'done'; found: boolean; text: string };

/**
 * "Find the bug for me" (DESIGN §9): searches seeds and schedules of the faults this scenario
 * lets the learner cause (pauses, crashes, partitions, clock jumps) for a run that breaks an
 * invariant which holds now, shrinks it to the fewest faults, and loads that run into the
 * player: its actions show on the timeline like the learner's own, and can be cleared the same way.
 */
export function BugFinder({ store }: { store: PlayerStore }) {
  const scenario = useStore(store, (s) => s.scenario);
  const verdicts = useStore(store, (s) => s.verdicts);
  const holding = verdicts.filter((v) => v.holds && (INVARIANTS as readonly string[]).includes(v.invariant)).map((v) => v.invariant as InvariantName);
  const kinds = FAULT_KINDS.filter((kind) => (scenario.controls as readonly string[]).includes(kind));
  const [choice, setChoice] = useState<InvariantName | ''>('');
  const [search, setSearch] = useState<Search>({ state: 'idle' });
  // False once the panel is gone: a chunk still computing must not go on searching.
  const mounted = useRef(true);
  const id = useId();
  useEffect(() => {
    mounted.current = true;
    return () => void (mounted.current = false);
  }, []);

  if (kinds.length === 0 || (holding.length === 0 && search.state !== 'done')) return null;
  const invariant = choice !== '' && holding.includes(choice) ? choice : holding[0];

  const start = () => {
    if (invariant === undefined) return;
    const { scenario: current, simulator, config } = store.getState();
    const asRun = { ...current, resource: { ...current.resource, fencing: config.fencing } };
    const name = invariant.replace(/-/g, ' ');
    let tried = 0;
    // The search goes in chunks (in the simulation worker), each with its own explorer seed, so
    // it shows how far it got and each chunk stays well inside the watchdog's budget.
    const chunk = async (index: number) => {
      const outcome = await simulator.explore(asRun, { invariant, runs: CHUNK_RUNS, kinds, explorerSeed: index + 1 });
      if (!mounted.current) return;
      if (!outcome.ok) {
        const why = outcome.why === 'stopped' ? `a batch of runs took more than ${outcome.budgetMs / 1000} s and was stopped` : outcome.why === 'failed' ? outcome.message : 'it was interrupted';
        setSearch({ state: 'done', found: false, text: `The search did not finish: ${why}. Try again, or look for the bug by hand.` });
        return;
      }
      const result = outcome.value;
      tried += result.runs;
      if (result.found) {
        store.getState().load({ seed: result.seed, fencing: config.fencing, actions: result.actions });
        const faults = result.actions.filter((a) => a.do !== 'restart' && a.do !== 'heal').length;
        const how = faults === 0 ? `seed ${result.seed} alone` : `${faults} fault${faults === 1 ? '' : 's'} (seed ${result.seed})`;
        const when = result.verdict?.atMs == null ? '' : ` at ${formatMs(result.verdict.atMs)}`;
        setSearch({ state: 'done', found: true, text: `Found in ${tried} runs: ${how} ${faults > 1 ? 'break' : 'breaks'} ${name}${when}. The run now has them as your actions: press Play to watch, or “Undo my changes”.` });
      } else if ((index + 1) * CHUNK_RUNS >= SEARCH_RUNS) {
        setSearch({ state: 'done', found: false, text: `No run broke ${name} in ${tried} tries with these faults (${kinds.join(', ')}). That is evidence, not proof.` });
      } else {
        setSearch({ state: 'searching', tried });
        void chunk(index + 1);
      }
    };
    setSearch({ state: 'searching', tried: 0 });
    void chunk(0);
  };

  return (
    <details className="bug-finder">
      <summary>Find the bug for me</summary>
      {holding.length > 0 && (
        <div className="bug-finder-form">
          <label htmlFor={`${id}-invariant`}>Break</label>
          <select id={`${id}-invariant`} value={invariant} onChange={(e) => setChoice(e.target.value as InvariantName)} disabled={search.state === 'searching'}>
            {holding.map((name) => (
              <option key={name} value={name}>
                {name.replace(/-/g, ' ')}
              </option>
            ))}
          </select>
          <button type="button" className="button button-secondary" onClick={start} disabled={search.state === 'searching'}>
            {search.state === 'searching' ? 'Searching…' : 'Search'}
          </button>
        </div>
      )}
      <p role="status" className={search.state === 'done' && search.found ? 'bug-finder-found' : 'muted'}>
        {search.state === 'done' ? search.text : search.state === 'searching' ? `Tried ${search.tried} of ${SEARCH_RUNS} seeds and fault schedules…` : `Tries seeds and ${kinds.join(', ')} faults, then keeps the fewest that still break it.`}
      </p>
    </details>
  );
}
