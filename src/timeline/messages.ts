import type { TraceEvent } from '../sim/traceEvents';
import type { MessageMark } from './modelTypes';
import { EVENTS_PER_STEP, type Steps } from '../sim/steps';

type SendEvent = TraceEvent<'net.send'>;
type RequestEvent = TraceEvent<'resource.request'>;

/**
 * Pairs each net.send with what became of it (net.deliver, net.drop, or nothing yet) by message
 * id, and each resource.request with the resource.write that answered it, so both can be drawn
 * as arrows from sender lane to receiver lane.
 */
export function* messageSteps(events: readonly TraceEvent[], endMs: number): Steps<MessageMark[]> {
  const sends = new Map<number, SendEvent>();
  const ended = new Set<number>();
  const pendingRequests = new Map<string, RequestEvent[]>();
  const marks: MessageMark[] = [];

  let seen = 0;
  for (const e of events) {
    if (++seen % EVENTS_PER_STEP === 0) yield;
    switch (e.kind) {
      case 'net.send':
        sends.set(e.data.msg, e);
        break;
      case 'net.deliver':
      case 'net.drop': {
        const send = sends.get(e.data.msg);
        if (!send) break;
        const dropped = e.kind === 'net.drop';
        marks.push({
          key: String(e.id),
          sendId: send.id,
          endId: e.id,
          from: send.actor,
          to: send.data.to,
          startMs: send.at,
          endMs: e.at,
          label: send.data.label,
          fate: dropped ? 'dropped' : ended.has(send.id) ? 'duplicate' : 'delivered',
          channel: 'net',
          dropReason: e.kind === 'net.drop' ? e.data.reason : null,
        });
        ended.add(send.id);
        break;
      }
      case 'resource.request': {
        const slot = `${e.actor}|${e.data.resource}`;
        pendingRequests.set(slot, [...(pendingRequests.get(slot) ?? []), e]);
        break;
      }
      case 'resource.write': {
        const queue = pendingRequests.get(`${e.data.from}|${e.actor}`);
        const request = queue?.shift();
        if (!request) break;
        marks.push({
          key: String(e.id),
          sendId: request.id,
          endId: e.id,
          from: request.actor,
          to: e.actor,
          startMs: request.at,
          endMs: e.at,
          label: request.data.token === null ? 'write (no token)' : `write, token ${request.data.token}`,
          fate: 'delivered',
          channel: 'request',
          dropReason: null,
        });
        break;
      }
      default:
        break;
    }
  }

  for (const send of sends.values()) {
    if (ended.has(send.id)) continue;
    marks.push({
      key: `s${send.id}`,
      sendId: send.id,
      endId: null,
      from: send.actor,
      to: send.data.to,
      startMs: send.at,
      endMs,
      label: send.data.label,
      fate: 'inFlight',
      channel: 'net',
      dropReason: null,
    });
  }
  marks.sort((a, b) => a.sendId - b.sendId);
  return marks;
}
