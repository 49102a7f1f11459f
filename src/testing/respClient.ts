import { connect, type Socket } from 'node:net';
import type { Reply } from '../redis/reply';

/**
 * A tiny pipelining RESP2 client for the random-sequence differential test. Replies are decoded
 * into the simulator's Reply type (byte strings as latin1), so both sides print through the
 * same redis-cli formatter; the hand-written cases go through the real redis-cli instead.
 */
export class RespClient {
  private buffer = Buffer.alloc(0);
  private waiting: Array<{ count: number; resolve: (replies: Reply[]) => void; replies: Reply[] }> = [];

  private constructor(private readonly socket: Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      this.drain();
    });
  }

  /** Connects to 127.0.0.1:port. */
  static connect(port: number): Promise<RespClient> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => resolve(new RespClient(socket)));
      socket.once('error', reject);
    });
  }

  /** Sends the commands pipelined and resolves with their replies in order. */
  send(commands: string[][]): Promise<Reply[]> {
    return new Promise((resolve) => {
      this.waiting.push({ count: commands.length, resolve, replies: [] });
      const payload = commands
        .map(
          (argv) =>
            `*${argv.length}\r\n${argv.map((arg) => `$${Buffer.byteLength(arg, 'latin1')}\r\n${arg}\r\n`).join('')}`,
        )
        .join('');
      this.socket.write(Buffer.from(payload, 'latin1'));
    });
  }

  /** Closes the connection. */
  close(): void {
    this.socket.destroy();
  }

  private drain(): void {
    for (;;) {
      const head = this.waiting[0];
      if (!head) return;
      const parsed = parseReply(this.buffer, 0);
      if (!parsed) return;
      this.buffer = this.buffer.subarray(parsed.end);
      head.replies.push(parsed.reply);
      if (head.replies.length === head.count) {
        this.waiting.shift();
        head.resolve(head.replies);
      }
    }
  }
}

function parseReply(buffer: Buffer, start: number): { reply: Reply; end: number } | null {
  const lineEnd = buffer.indexOf('\r\n', start);
  if (lineEnd === -1) return null;
  const kind = String.fromCharCode(buffer[start] as number);
  const line = buffer.toString('latin1', start + 1, lineEnd);
  const next = lineEnd + 2;
  switch (kind) {
    case '+':
      return { reply: { type: 'status', value: line }, end: next };
    case '-':
      return { reply: { type: 'error', value: line }, end: next };
    case ':':
      return { reply: { type: 'integer', value: BigInt(line) }, end: next };
    case '$': {
      const length = Number(line);
      if (length < 0) return { reply: { type: 'bulk', value: null }, end: next };
      if (buffer.length < next + length + 2) return null;
      return { reply: { type: 'bulk', value: buffer.toString('latin1', next, next + length) }, end: next + length + 2 };
    }
    case '*': {
      const count = Number(line);
      if (count < 0) return { reply: { type: 'array', value: null }, end: next };
      const items: Reply[] = [];
      let at = next;
      for (let i = 0; i < count; i++) {
        const item = parseReply(buffer, at);
        if (!item) return null;
        items.push(item.reply);
        at = item.end;
      }
      return { reply: { type: 'array', value: items }, end: at };
    }
    default:
      throw new Error(`Unexpected RESP type byte ${kind}`);
  }
}
