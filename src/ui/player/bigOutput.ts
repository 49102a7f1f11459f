/**
 * How much of a big keyspace or reply the player draws. A Lua loop can make 100,000 keys and
 * `string.rep` a 10 MB reply in one console command; drawing all of it froze the page for
 * seconds (600,000 table cells; one 10-million-character line to lay out), and every later
 * command redrew it. The player draws a readable slice and says what it left out, and how to
 * read the rest: the console still answers any command about any key.
 */

/** Keys listed per node in "Inside the world" (the first, by name). */
export const KEYS_SHOWN = 50;
/** Lines of one console reply drawn. */
export const REPLY_LINES_SHOWN = 200;
/** Characters of one value or reply line drawn. */
export const CHARS_SHOWN = 2_000;

const count = (n: number) => n.toLocaleString('en-US');

/** `text`, cut to `max` characters with a note of its full length when longer. */
export function clipText(text: string, max = CHARS_SHOWN): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}… (${count(text.length)} characters; the first ${count(max)} shown)`;
}

/** A reply's lines as drawn, and a note of the lines left out (null when none are). */
export function clipReply(lines: readonly string[]): { lines: string[]; note: string | null } {
  const shown = lines.slice(0, REPLY_LINES_SHOWN).map((line) => clipText(line));
  const left = lines.length - shown.length;
  return {
    lines: shown,
    note:
      left > 0
        ? `… ${count(left)} more lines not drawn (${count(lines.length)} in all). Ask for less: SCAN 0 MATCH pattern COUNT 100, or GETRANGE key 0 99.`
        : null,
  };
}

/** The note under a node's keys when only the first `shown` of `total` are listed. */
export function keysNote(shown: number, total: number): string | null {
  if (total <= shown) return null;
  return `The first ${count(shown)} of ${count(total)} keys, by name. Read any other in the console (GET key, TTL key, SCAN 0 MATCH pattern).`;
}
