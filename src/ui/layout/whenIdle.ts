/**
 * Runs `run` at the browser's next idle moment, `timeoutMs` at the latest. Where the browser has
 * no idle callbacks (Safari), after a second, or `timeoutMs` if that is shorter. Returns a
 * function that cancels it if it has not run yet.
 */
export function whenIdle(run: () => void, timeoutMs: number): () => void {
  if (typeof requestIdleCallback === 'function') {
    const handle = requestIdleCallback(run, { timeout: timeoutMs });
    return () => cancelIdleCallback(handle);
  }
  const handle = setTimeout(run, Math.min(timeoutMs, 1000));
  return () => clearTimeout(handle);
}
