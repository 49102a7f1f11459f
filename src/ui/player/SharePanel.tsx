import { useState } from 'react';
import { embedSnippet } from '../embed/embedSnippet';
import { parseRoute, WORKBENCH_HREF } from '../routing/route';
import type { PlayerStore } from './playerStore';

/**
 * "Share this run": a link whose fragment carries the scenario id, seed, fencing and every
 * learner action, so whoever opens it gets the same timeline (the same trace hash), at the
 * same playhead time.
 */
export function SharePanel({ store, embedScenario = false }: { store: PlayerStore; embedScenario?: boolean }) {
  const [url, setUrl] = useState<string | null>(null);
  const [status, setStatus] = useState('');

  const share = async () => {
    const { scenario, playheadMs } = store.getState();
    // The run as the learner last changed it, even while it is still computing.
    const config = store.getState().requested ?? store.getState().config;
    try {
      // The link codec is loaded on the first share (see readLink in ScenarioPlayerLive.tsx).
      const { encodeRun, shareUrl } = await import('./shareLink');
      const encoded = encodeRun({ scenarioId: scenario.id, config, ...(embedScenario ? { scenario } : {}) });
      // The playhead rides beside the run (`t=`): whoever opens the link lands where it was shared.
      const link = withPlayhead(shareUrl(window.location.href, encoded), playheadMs);
      setUrl(link);
      try {
        await navigator.clipboard.writeText(link);
        setStatus('Link copied. Anyone who opens it sees this exact run.');
      } catch {
        setStatus('Copy the link from the box: anyone who opens it sees this exact run.');
      }
    } catch (error) {
      setUrl(null);
      setStatus(error instanceof Error ? error.message : String(error));
    }
  };

  const route = parseRoute(window.location.hash);
  // The scenario, with the learner's changes, in the workbench's editor: a link there that carries it.
  const openInWorkbench = async () => {
    const { scenario } = store.getState();
    const config = store.getState().requested ?? store.getState().config;
    try {
      const { encodeRun } = await import('./shareLink');
      // From a lesson, the workbench links back to it (`from`).
      const from = route.name === 'lesson' ? `&from=${encodeURIComponent(route.slug)}` : '';
      window.location.hash = `${WORKBENCH_HREF}?run=${encodeRun({ scenarioId: scenario.id, config, scenario })}${from}`;
    } catch (error) {
      setStatus(error instanceof Error ? error.message : String(error));
    }
  };
  const inWorkbench = route.name === 'workbench';

  return (
    <div className="share-panel">
      <button type="button" onClick={() => void share()}>
        Share this run
      </button>
      {!inWorkbench && (
        <button type="button" onClick={() => void openInWorkbench()}>
          Open in the workbench
        </button>
      )}
      {route.name === 'lesson' && <EmbedAction slug={route.slug} store={store} />}
      {url && (
        <label className="share-url">
          <span className="visually-hidden">Link to this run</span>
          <input type="text" readOnly value={url} onFocus={(e) => e.currentTarget.select()} />
        </label>
      )}
      <p className="muted share-status" role="status">
        {status}
      </p>
    </div>
  );
}

/**
 * "Embed": the HTML an instructor pastes into a page or an LMS to show this player alone (the
 * lesson's run, not the learner's changes), optionally with the question asked before it.
 */
function EmbedAction({ slug, store }: { slug: string; store: PlayerStore }) {
  const [open, setOpen] = useState(false);
  const [withQuiz, setWithQuiz] = useState(false);
  const { scenario } = store.getState();
  const snippet = embedSnippet(window.location.href, slug, scenario.id, scenario.title, withQuiz);
  return (
    <>
      <button type="button" aria-expanded={open} onClick={() => setOpen(!open)}>
        Embed
      </button>
      {open && (
        <div className="share-embed">
          <label>
            <input type="checkbox" checked={withQuiz} onChange={(e) => setWithQuiz(e.target.checked)} /> With the
            question asked before it
          </label>
          <label className="share-url">
            <span>HTML to paste into your page or LMS</span>
            <textarea readOnly rows={4} value={snippet} onFocus={(e) => e.currentTarget.select()} />
          </label>
        </div>
      )}
    </>
  );
}

/** Sets `t=<ms>` in the link's fragment query (shareUrl has put `run=` there). */
function withPlayhead(link: string, playheadMs: number): string {
  const hashAt = link.indexOf('#');
  const [path = '#/', query = ''] = link.slice(hashAt).split('?');
  const params = new URLSearchParams(query);
  params.set('t', String(Math.round(playheadMs)));
  return `${link.slice(0, hashAt)}${path}?${params.toString()}`;
}
