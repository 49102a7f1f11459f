/**
 * Cuts a RESP2 byte stream into whole frames: one command as a client sends it, or one reply as
 * Redis sends it. The simulator's unit of loss and delay is a message, and on a Redis connection
 * a message is a frame, so the link proxy (linkProxy.ts) drops, delays and counts frames, never
 * the arbitrary chunks TCP happens to deliver. Pipelined commands are several frames.
 */
export class RespFramer {
  private buffer: Buffer = Buffer.alloc(0);

  /** Takes the next chunk of the stream; returns the frames it completed, in order. */
  push(chunk: Buffer): Buffer[] {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    const frames: Buffer[] = [];
    let start = 0;
    for (;;) {
      const end = frameEnd(this.buffer, start);
      if (end < 0) break;
      frames.push(this.buffer.subarray(start, end));
      start = end;
    }
    this.buffer = this.buffer.subarray(start);
    return frames;
  }
}

/** Where the frame starting at `at` ends (the index past it), or -1 when it is not all there yet. */
function frameEnd(buffer: Buffer, at: number): number {
  if (at >= buffer.length) return -1;
  const lineEnd = buffer.indexOf('\r\n', at);
  if (lineEnd < 0) return -1;
  const afterLine = lineEnd + 2;
  const type = String.fromCharCode(buffer[at]!);
  if (type === '$') {
    const length = Number(buffer.toString('latin1', at + 1, lineEnd));
    if (length < 0) return afterLine;
    return buffer.length >= afterLine + length + 2 ? afterLine + length + 2 : -1;
  }
  if (type === '*') {
    const count = Number(buffer.toString('latin1', at + 1, lineEnd));
    let end = afterLine;
    for (let i = 0; i < count; i++) {
      end = frameEnd(buffer, end);
      if (end < 0) return -1;
    }
    return end;
  }
  // `+`, `-`, `:` and an inline command are one line.
  return afterLine;
}
