import { useEffect, useState } from 'react';

/** How long after the page has loaded the service worker is registered. */
const REGISTER_AFTER_LOAD_MS = 2000;

/**
 * Registers the service worker (offline after the first visit) and, when a new version has
 * downloaded, asks before switching: swapping code silently could reset a lesson mid-way.
 * Registering installs it, and installing downloads the whole site (about 5 MB) for offline use:
 * that waits until the page has loaded and then settled, so as not to compete with the first
 * player for the CPU and the connection.
 */
export function UpdatePrompt() {
  const [update, setUpdate] = useState<(() => Promise<void>) | null>(null);

  useEffect(() => {
    if (import.meta.env.DEV || !('serviceWorker' in navigator)) return;
    let cancelled = false;
    const register = () =>
      void import('virtual:pwa-register').then(({ registerSW }) => {
        if (cancelled) return;
        const updateSW = registerSW({
          immediate: true,
          onNeedRefresh: () => setUpdate(() => () => updateSW(true)),
        });
      });
    let timer: ReturnType<typeof setTimeout> | undefined;
    const later = () => (timer = setTimeout(register, REGISTER_AFTER_LOAD_MS));
    if (document.readyState === 'complete') later();
    else window.addEventListener('load', later, { once: true });
    return () => {
      cancelled = true;
      clearTimeout(timer);
      window.removeEventListener('load', later);
    };
  }, []);

  if (update) {
    return (
      <div className="notice notice-info update-prompt" role="status">
        <p>A new version of Lockstep is ready. Your progress is kept when you reload.</p>
        <button type="button" className="button button-primary" onClick={() => void update()}>
          Reload now
        </button>
        <button type="button" className="button button-quiet" onClick={() => setUpdate(null)}>
          Later
        </button>
      </div>
    );
  }
  return null;
}
