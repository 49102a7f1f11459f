import * as r from '../redis/reply';

/**
 * An ioredis reply as RESP's, the simulator's Reply. ioredis gives a status and a bulk string
 * alike (a JS string), so `OK` is taken for the status it is wherever a recipe or a step reads one.
 */
export function asReply(reply: unknown): r.Reply {
  if (reply instanceof Error) return r.error(reply.message);
  if (typeof reply === 'number') return r.integer(reply);
  if (reply === null || reply === undefined) return r.nil;
  if (Array.isArray(reply)) return r.array(reply.map(asReply));
  return reply === 'OK' ? r.ok : r.bulk(String(reply));
}
