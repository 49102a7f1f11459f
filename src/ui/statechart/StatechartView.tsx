import type { OutlineState, OutlineTransition } from './machineOutline';
import './statechart.css';

/**
 * A machine drawn from its own definition: states as nested boxes (a parallel state's regions
 * side by side), each listing the transitions it declares. States named in `active` are lit, so
 * a lane's statechart follows the playhead.
 */
export function StatechartView({ outline, active, label }: { outline: OutlineState; active: ReadonlySet<string>; label: string }) {
  return (
    <figure className="statechart" aria-label={label}>
      <StateBox state={outline} active={active} isRoot initialKey={null} />
      <figcaption className="statechart-caption">
        Drawn from the machine’s own definition. The lit state is where the actor is at the playhead.
      </figcaption>
    </figure>
  );
}

function StateBox({ state, active, isRoot, initialKey }: { state: OutlineState; active: ReadonlySet<string>; isRoot: boolean; initialKey: string | null }) {
  const lit = active.has(state.key) || state.children.some((c) => containsActive(c, active));
  const classes = ['statechart-state', `is-${state.type}`, lit ? 'is-active' : '', isRoot ? 'is-root' : ''].filter(Boolean).join(' ');
  return (
    <div className={classes} aria-current={active.has(state.key) ? 'step' : undefined}>
      {!isRoot && (
        <div className="statechart-name">
          {initialKey === state.key && <span className="statechart-initial" title="initial state" aria-label="initial state">●→ </span>}
          {state.key}
          {state.type === 'final' && <span className="statechart-final"> (final)</span>}
          {state.type === 'parallel' && <span className="statechart-final"> (parallel)</span>}
        </div>
      )}
      {state.transitions.length > 0 && (
        <ul className="statechart-transitions">
          {state.transitions.map((t, i) => (
            <li key={i}>{transitionText(t)}</li>
          ))}
        </ul>
      )}
      {state.children.length > 0 && (
        <div className={state.type === 'parallel' ? 'statechart-regions' : 'statechart-children'}>
          {state.children.map((child) => (
            <StateBox key={child.id} state={child} active={active} isRoot={false} initialKey={state.initial} />
          ))}
        </div>
      )}
    </div>
  );
}

function containsActive(state: OutlineState, active: ReadonlySet<string>): boolean {
  return active.has(state.key) || state.children.some((c) => containsActive(c, active));
}

/** `RENEW_FAILED [mayRetryRenew] → renewWaiting` */
export function transitionText(t: OutlineTransition): string {
  const guard = t.guard ? ` [${t.guard}]` : '';
  const to = t.to.length > 0 ? ` → ${t.to.join(', ')}` : ' (stays)';
  return `${t.on}${guard}${to}`;
}
