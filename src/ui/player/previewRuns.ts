import type { JobOutcome } from '../worker/jobQueue';
import type { ComputedRun, RunConfig } from './runModel';

/** What the previews need of their player: a simulator lane of their own, and the run on show. */
export interface PreviewHost {
  /** Computes a run on the previews' own lane of the worker. */
  run(config: RunConfig): Promise<JobOutcome<ComputedRun>>;
  /** A number that changes whenever the player asks for a run of its own (a change, an undo). */
  ticket(): number;
  /** Puts a run on show, the story's marks and the undo stack untouched. */
  show(run: ComputedRun): void;
  /** The run on show now. */
  shown(): ComputedRun;
}

/**
 * The runs a player shows while a mark is being dragged, as a video editor's timeline re-renders
 * under the playhead while a clip moves. Throttled by the worker itself: one preview computes at
 * a time, and while it does only the newest position waits behind it (the ones the pointer passed
 * through meanwhile are never computed). The run on show stays until the next one arrives, so
 * nothing blinks; an answer arriving after the player asked for a run of its own (the drag's
 * release made it a change, or an undo) is dropped. When the drag ends without a change, the run
 * from before it is put back.
 */
export function previewRuns(host: PreviewHost) {
  let active = false;
  let startTicket = 0;
  let before: ComputedRun | null = null;
  let changedShown = false;
  let busy = false;
  let waiting: RunConfig | null = null;
  let last: { key: string; answer: Promise<JobOutcome<ComputedRun>> } | null = null;

  const send = (config: RunConfig) => {
    busy = true;
    const answer = host.run(config);
    last = { key: JSON.stringify(config), answer };
    void answer.then((outcome) => {
      busy = false;
      const current = active && host.ticket() === startTicket;
      if (current && outcome.ok) {
        host.show(outcome.value);
        changedShown = true;
      }
      const next = waiting;
      waiting = null;
      if (current && next) send(next);
    });
  };

  return {
    /** Shows the run `config` asks for as soon as the worker is free for it. */
    ask(config: RunConfig) {
      if (!active) {
        active = true;
        startTicket = host.ticket();
        before = host.shown();
        changedShown = false;
      }
      const key = JSON.stringify(config);
      if (last?.key === key && !waiting) return;
      if (busy) waiting = config;
      else send(config);
    },
    /** The drag is over: a run shown for it is replaced by the one from before, unless the player has asked for another since. */
    stop() {
      if (!active) return;
      active = false;
      waiting = null;
      if (changedShown && before && host.ticket() === startTicket) host.show(before);
      before = null;
    },
    /**
     * The answer already computed (or computing) for `config`, if the last preview asked for it:
     * the drag's release asks for the run its last position showed.
     */
    answerFor(config: RunConfig): Promise<JobOutcome<ComputedRun>> | null {
      if (last?.key !== JSON.stringify(config)) return null;
      return last.answer;
    },
  };
}
