import { useStore } from 'zustand';
import type { PlayerStore } from './playerStore';

/**
 * What the player says when the run last asked for did not arrive: the watchdog stopped it
 * (one step never ended, or the whole run computed for too long), or the simulator failed. The last good run, if any, stays shown
 * below, and the learner is told what they can do next.
 */
export function RunStopNotice({ store }: { store: PlayerStore }) {
  const stopped = useStore(store, (s) => s.stopped);
  const hasRun = useStore(store, (s) => s.events.length > 0);
  if (!stopped) return null;
  const withActions = stopped.config.actions.length > 0;
  const { clearActions, load, dismissStop } = store.getState();
  return (
    <div className="player-notice player-run-stopped" role="alert">
      {stopped.why === 'stopped' ? (
        <>
          <p>
            <strong>
              This run was stopped:{' '}
              {stopped.whole
                ? `it computed for more than ${stopped.budgetMs / 1000} s in all.`
                : `one step of it computed for more than ${stopped.budgetMs / 1000} s without ending.`}
            </strong>{' '}
            A script in it does work the simulator cannot count and cut short, such as comparing or copying very long
            strings many times over (a script that merely loops for ever, or a pattern that backtracks for ever, is cut
            by its own budget).
          </p>
          <p>
            {hasRun ? 'The last run that finished is still shown: your last change was not applied. ' : ''}
            {withActions
              ? 'Remove the actions or console commands that start it, or run the scenario as written.'
              : 'Change the scenario (the script, the retry delay or the horizon) and open it again.'}
          </p>
        </>
      ) : (
        <p>
          <strong>The simulator could not compute this run:</strong> {stopped.message}. Try again, or reload the page.
        </p>
      )}
      <div className="player-notice-actions">
        {withActions && (
          <button type="button" onClick={() => clearActions()}>
            Run the scenario as written
          </button>
        )}
        {stopped.why === 'failed' && (
          <button type="button" onClick={() => load(stopped.config)}>
            Try again
          </button>
        )}
        {hasRun && (
          <button type="button" onClick={dismissStop}>
            Dismiss
          </button>
        )}
      </div>
    </div>
  );
}
