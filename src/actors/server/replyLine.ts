import { formatReply } from '../../redis/cliFormat';
import { nil, ok, type Reply } from '../../redis/reply';
import type { LabelSource } from '../../net/network';

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

/** A write's reply and the WAIT that followed it in one pipeline, as they come back: both Redis's. */
class PipelineLine implements LabelSource {
  private text: string | null = null;

  constructor(
    readonly reply: Reply,
    readonly acks: Reply,
  ) {}

  label(): string {
    return (this.text ??= `${formatReply(this.reply)}, WAIT ${formatReply(this.acks)}`);
  }
}

/** The line for a write's reply followed by WAIT's. */
export function pipelineLine(reply: Reply, acks: Reply): LabelSource {
  return new PipelineLine(reply, acks);
}

/** The replies nearly every contended attempt gets share their lines. */
const shared = new Map<Reply, ReplyLine>([nil, ok].map((reply) => [reply, new ReplyLine(reply)]));

/** The line for `reply`: a shared one for the common replies, else a new one. */
export function replyLine(reply: Reply): ReplyLine {
  return shared.get(reply) ?? new ReplyLine(reply);
}
