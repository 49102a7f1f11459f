import { useEffect, useMemo, useRef } from 'react';
import type { Scenario } from '../../scenario/schema/schema';
import type { ActorInfo, TraceEvent } from '../../sim/traceEvents';
import { litStatesAt, machineOf } from './laneMachine';
import { machineOutline } from './machineOutline';
import { stateName } from './stateNames';
import { StatechartView } from './StatechartView';

export interface StatechartPanelProps {
  actor: ActorInfo;
  scenario: Scenario;
  events: readonly TraceEvent[];
  cursor: number;
  onClose: () => void;
}

/**
 * An actor's statechart, opened from its lane menu and shown under the diagram with that lane
 * outlined (so it covers no lane while the learner steps): the machine that drives it, drawn from
 * its own definition, with the state it is in at the playhead lit. Focus moves to the panel when
 * it opens; Escape (with focus anywhere) or Close closes it (the host returns focus to the menu).
 */
export default function StatechartPanel({ actor, scenario, events, cursor, onClose }: StatechartPanelProps) {
  const machine = machineOf(actor, scenario);
  const outline = useMemo(() => (machine ? machineOutline(machine) : null), [machine]);
  const lit = useMemo(() => litStatesAt(events, cursor, actor.id), [events, cursor, actor.id]);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), [actor.id]);
  // Escape closes it wherever focus is (a learner who clicked Step or the lanes has left the
  // panel); a menu or dialog that handles its own Escape stops it first.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape' && !e.defaultPrevented) onClose();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [onClose]);
  if (!outline) return null;
  const name = `${actor.label}’s statechart`;
  return (
    <section className="statechart-panel" aria-label={name}>
      <header className="statechart-panel-header">
        <h4 ref={heading} tabIndex={-1}>
          {name} <span className="statechart-machine">({outline.key} machine)</span>
        </h4>
        <button type="button" onClick={onClose}>
          Close
        </button>
      </header>
      <p className="statechart-now" data-testid="statechart-now">
        At the playhead:{' '}
        <strong>{lit.laneState === null ? 'not started' : stateName(outline.key, lit.laneState)}</strong>
        {lit.note && <span className="statechart-note"> {lit.note}</span>}
      </p>
      <StatechartView outline={outline} active={lit.active} label={`${name}, drawn from its machine`} />
    </section>
  );
}
