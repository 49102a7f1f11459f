/**
 * Calls `then` just after the browser has painted its next frame: a frame callback runs just
 * before the paint, and a message posted from it runs just after. Returns a cancel function.
 */
export function afterNextPaint(then: () => void): () => void {
  let cancelled = false;
  const channel = new MessageChannel();
  channel.port1.onmessage = () => {
    channel.port1.close();
    if (!cancelled) then();
  };
  const frame = requestAnimationFrame(() => channel.port2.postMessage(null));
  return () => {
    cancelled = true;
    cancelAnimationFrame(frame);
    channel.port1.close();
  };
}
