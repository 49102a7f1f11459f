import { formatReply } from '../redis/cliFormat';
import { nil, ok, type Reply } from '../redis/reply';
import type { LabelSource } from '../net/network';

/**
 * A reply as redis-cli shows it, formatted on the first read and kept: the trace holds one for
 * every reply message and command, and most of them are never read.
 */
export class ReplyLine implements LabelSource {
  private text: string | null = null;

  constructor(readonly reply: Reply) {}

  label(): string {
    return (this.text ??= formatReply(this.reply));
  }
}

/** The replies nearly every contended attempt gets share their lines. */
const shared = new Map<Reply, ReplyLine>([nil, ok].map((reply) => [reply, new ReplyLine(reply)]));

/** The line for `reply`: a shared one for the common replies, else a new one. */
export function replyLine(reply: Reply): ReplyLine {
  return shared.get(reply) ?? new ReplyLine(reply);
}
