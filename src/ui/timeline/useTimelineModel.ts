import { useEffect, useMemo, useState } from 'react';
import type { Verdict } from '../../check/verdict';
import type { TraceEvent } from '../../sim/traceEvents';
import { runSteps, type Steps } from '../../sim/steps';
import { canGroupClients, groupSteps } from '../../timeline/laneGroups';
import { timelineModelSteps, type TimelineModel } from '../../timeline/model';
import { runInSlices } from '../slicedWork';

/**
 * Runs up to this long are read in one go (every lesson's run is far shorter: tens of
 * milliseconds at most). Longer ones, up to a herd cut at 200,000 events that takes over half a
 * second to read, are read a slice per task so the page keeps answering meanwhile.
 */
export const WHOLE_MODEL_EVENTS = 20_000;

/** A run's timeline model, and the same with a herd's clients folded into one lane (as first shown). */
export interface TimelineModels {
  full: TimelineModel;
  /** Null when there are too few clients to fold. */
  folded: TimelineModel | null;
}

function* modelSteps(events: readonly TraceEvent[], verdicts: readonly Verdict[]): Steps<TimelineModels> {
  const full = yield* timelineModelSteps(events, verdicts);
  return { full, folded: canGroupClients(full) ? yield* groupSteps(full) : null };
}

/**
 * The timeline models of a run: at once for a run of ordinary length; for a long one null until
 * its slices are read (a new run's models replace the old ones only when they are complete).
 */
export function useTimelineModel(events: readonly TraceEvent[], verdicts: readonly Verdict[]): TimelineModels | null {
  const whole = events.length <= WHOLE_MODEL_EVENTS;
  const wholeModel = useMemo(() => (whole ? runSteps(modelSteps(events, verdicts)) : null), [whole, events, verdicts]);
  const [sliced, setSliced] = useState<{
    events: readonly TraceEvent[];
    verdicts: readonly Verdict[];
    model: TimelineModels;
  } | null>(null);
  useEffect(() => {
    if (whole) return;
    let cancelled = false;
    void runInSlices(modelSteps(events, verdicts), () => cancelled).then((model) => {
      if (model && !cancelled) setSliced({ events, verdicts, model });
    });
    return () => {
      cancelled = true;
    };
  }, [whole, events, verdicts]);
  if (whole) return wholeModel;
  return sliced?.events === events && sliced.verdicts === verdicts ? sliced.model : null;
}
