import type { TraceEvent } from '../sim/traceEvents';

/**
 * What a lesson's prose can quote of Redis's answers: "B's next `SET` gets `(nil)`", "the release
 * returns `0`", "refused with `NOREPLICAS`". A `reply` claim (src/lessons/blocks/claims.ts) names
 * the command; lessons:check compares the reply the run recorded for it with the quoted one.
 */

/** One command a Redis node ran: the nth (1-based, or the last) whose words start with `words`, optionally sent by one client. */
export interface CommandQuery {
  /** The command name and, optionally, its first arguments: `SET`, `GET lock`, `WAIT`. */
  words: string[];
  by: string | null;
  nth: number | 'last';
}

const QUERY = /^(?:(last|first|(\d+)(?:st|nd|rd|th)) +)?(.+?)(?: +by +(\S+))?$/;

/** Reads "2nd SET by B" as a query, or says what is wrong with it. */
export function parseCommandQuery(
  text: string,
): { ok: true; query: CommandQuery } | { ok: false; message: string; hint: string } {
  const match = QUERY.exec(text.trim());
  const words = match?.[3]?.split(/\s+/) ?? [];
  if (!match || !/^[A-Za-z][\w|-]*$/.test(words[0] ?? '')) {
    return {
      ok: false,
      message: `cannot read '${text}' as a command`,
      hint: "write '[first|2nd|last] <COMMAND> [args] [by <client>]', e.g. '2nd SET by B' or 'EVAL by A'",
    };
  }
  const nth = match[1] === 'last' ? 'last' : match[2] !== undefined ? Number(match[2]) : 1;
  if (nth !== 'last' && nth < 1)
    return { ok: false, message: `there is no ${match[1]} command`, hint: 'count from 1st' };
  return { ok: true, query: { words, by: match[4] ?? null, nth } };
}

/** Describes a query as a claim writes it: "2nd SET by B". */
export function describeCommand(query: CommandQuery): string {
  const nth =
    query.nth === 'last'
      ? 'last '
      : query.nth === 1
        ? ''
        : `${query.nth}${query.nth === 2 ? 'nd' : query.nth === 3 ? 'rd' : 'th'} `;
  return `${nth}${query.words.join(' ')}${query.by === null ? '' : ` by ${query.by}`}`;
}

/**
 * The reply, as redis-cli prints it (`(nil)`, `OK`, `(integer) 0`, `(error) NOREPLICAS …`), that a
 * node gave the command the query names; a command's name matches in any case, its arguments
 * exactly. The reply is Redis's whether or not it reached the client.
 */
export function replyOf(events: readonly TraceEvent[], query: CommandQuery): { reply: string } | { missing: string } {
  const found = events.filter(
    (e): e is Extract<TraceEvent, { kind: 'redis.command' }> =>
      e.kind === 'redis.command' &&
      (query.by === null || e.data.from === query.by) &&
      startsWith(e.data.argv, query.words),
  );
  const event = query.nth === 'last' ? found.at(-1) : found[query.nth - 1];
  if (!event)
    return {
      missing: `the run has no ${describeCommand(query)} (it ran ${found.length} such command${found.length === 1 ? '' : 's'})`,
    };
  return { reply: event.data.reply };
}

function startsWith(argv: readonly string[], words: readonly string[]): boolean {
  return words.every((word, i) => (i === 0 ? argv[0]?.toUpperCase() === word.toUpperCase() : argv[i] === word));
}

/**
 * Whether a reply quoted in prose is the one the run shows. Prose quotes a reply as the reader
 * meets it: redis-cli's whole line (`(integer) 0`, `(nil)`), or the value alone (`0`, `"a7f3"` or
 * `a7f3`), or an error by its code or its whole text (`NOREPLICAS`, `CROSSSLOT Keys in request…`).
 */
export function replyAgrees(quoted: string, reply: string): boolean {
  const said = quoted.trim();
  if (said === reply) return true;
  const integer = /^\(integer\) (-?\d+)$/.exec(reply);
  if (integer) return said === integer[1];
  const error = /^\(error\) (.*)$/s.exec(reply);
  if (error) {
    const text = error[1]!;
    const spoken = said.replace(/^-/, '');
    return text === spoken || text.startsWith(`${spoken} `);
  }
  const bulk = /^"(.*)"$/s.exec(reply);
  return bulk !== null && said === bulk[1];
}
