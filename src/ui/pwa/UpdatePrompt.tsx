import { useEffect, useState } from 'react';

/**
 * Registers the service worker (offline after the first visit) and, when a new version has
 * downloaded, asks before switching: swapping code silently could reset a lesson mid-way.
 */
export function UpdatePrompt() {
  const [update, setUpdate] = useState<(() => Promise<void>) | null>(null);

  useEffect(() => {
    if (import.meta.env.DEV || !('serviceWorker' in navigator)) return;
    let cancelled = false;
    void import('virtual:pwa-register').then(({ registerSW }) => {
      if (cancelled) return;
      const updateSW = registerSW({
        onNeedRefresh: () => setUpdate(() => () => updateSW(true)),
      });
    });
    return () => {
      cancelled = true;
    };
  }, []);

  if (update) {
    return (
      <div className="notice notice-info update-prompt" role="status">
        <p>A new version of Lockstep is ready. Your progress is kept when you reload.</p>
        <button type="button" className="button button-primary" onClick={() => void update()}>Reload now</button>
        <button type="button" className="button button-quiet" onClick={() => setUpdate(null)}>Later</button>
      </div>
    );
  }
  return null;
}
