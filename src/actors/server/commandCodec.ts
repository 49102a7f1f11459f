import { actorOf, numberOf, TraceCodec, type Trace } from '../../sim/trace';
import type { TraceKind } from '../../sim/traceEvents';
import type { ReplyLine } from './replyLine';

/** A command and its reply as a `redis.command` event keeps them (the reply formatted when read). */
export class CommandOutcome {
  constructor(
    readonly argv: string[],
    readonly reply: ReplyLine,
  ) {}
}

/**
 * How `redis.command` events are kept in the trace: the message id and the sender's actor id
 * as one number, and the outcome (shared by repeated failing attempts). Nothing per command
 * is kept alive for those, which are most of a contended run's commands.
 */
class CommandCodec extends TraceCodec {
  decode(
    _kind: TraceKind,
    num: number,
    ref: unknown,
    trace: Trace,
  ): { msg: number; from: string; argv: string[]; reply: string } {
    const outcome = ref as CommandOutcome;
    return {
      msg: numberOf(num),
      from: trace.actorName(actorOf(num)),
      argv: outcome.argv,
      reply: outcome.reply.label(),
    };
  }
}

export const COMMAND = new CommandCodec();
