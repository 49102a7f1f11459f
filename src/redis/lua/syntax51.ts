/**
 * Holding scripts to Lua 5.1's syntax on a Lua 5.4 compiler.
 *
 * Redis embeds Lua 5.1, which has no `//`, `&`, `|`, `~` (xor/not), `<<`, `>>`, `goto`,
 * `::label::` or `<const>` attributes. Instead of a second parser, each such token is rewritten
 * into something 5.4 also refuses at the same place (`//` becomes `/ /`, `&` becomes a control
 * byte), so 5.4's own error names the same line and, after mapping the message back, the same
 * token 5.1 would. `goto` is an ordinary name in 5.1 and is renamed so it stays one. Unknown
 * string escapes (`\x41`, `\z`, `\u{..}`) lose their backslash, as 5.1 keeps the character.
 */

const AMP = '\x01';
const PIPE = '\x02';
const TILDE = '\x03';
const ATTRIB_LT = '\x04';
const GOTO_NAME = '__goto51';

/** Control bytes this module inserts, and the 5.1 token each stands for in messages. */
const PLACEHOLDER_TOKENS: Record<string, string> = { '1': '&', '2': '|', '3': '~', '4': '<' };

const FIVE_ONE_ESCAPES = 'abfnrtv\\"\'\n\r0123456789';

/** Rewrites 5.3+ syntax so that the 5.4 compiler rejects it where 5.1 would. */
export function rewriteFor51(source: string): string {
  let out = '';
  let i = 0;
  const n = source.length;
  // The last two significant tokens, to spot `local name <attrib>`.
  let previous = '';
  let beforePrevious = '';
  const pushToken = (token: string) => {
    beforePrevious = previous;
    previous = token;
  };
  while (i < n) {
    const c = source[i] as string;
    const next = source[i + 1] ?? '';
    if (c === '-' && next === '-') {
      const end = skipComment(source, i);
      out += source.slice(i, end);
      i = end;
      continue;
    }
    if (c === '[' && longBracketLevel(source, i) >= 0) {
      const end = skipLongBracket(source, i);
      out += source.slice(i, end);
      i = end;
      pushToken('string');
      continue;
    }
    if (c === '"' || c === "'") {
      const [text, end] = rewriteShortString(source, i);
      out += text;
      i = end;
      pushToken('string');
      continue;
    }
    if (/[A-Za-z_]/.test(c)) {
      let end = i + 1;
      while (end < n && /[A-Za-z0-9_]/.test(source[end] as string)) end++;
      const word = source.slice(i, end);
      out += word === 'goto' ? GOTO_NAME : word;
      i = end;
      pushToken(word === 'local' ? 'local' : 'name');
      continue;
    }
    if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(next))) {
      let end = i + 1;
      while (end < n) {
        const d = source[end] as string;
        if (/[0-9A-Za-z_.]/.test(d)) end++;
        else if ((d === '+' || d === '-') && /[eEpP]/.test(source[end - 1] as string)) end++;
        else break;
      }
      out += source.slice(i, end);
      i = end;
      pushToken('number');
      continue;
    }
    const two = c + next;
    if (two === '//' || two === '<<' || two === '>>' || two === '::') {
      out += `${c} ${next}`;
      i += 2;
      pushToken(two);
      continue;
    }
    if (two === '~=' || two === '<=' || two === '>=' || two === '==' || two === '..') {
      out += two;
      i += 2;
      pushToken(two);
      continue;
    }
    if (c === '&' || c === '|' || c === '~') {
      out += c === '&' ? AMP : c === '|' ? PIPE : TILDE;
    } else if (c === '<' && previous === 'name' && beforePrevious === 'local') {
      out += ATTRIB_LT;
    } else {
      out += c;
    }
    if (!/\s/.test(c)) pushToken(c);
    i++;
  }
  return out;
}

/** Maps a 5.4 compile error for rewritten source back to the wording 5.1 would use. */
export function mapCompileMessage(message: string): string {
  return message
    .replace(/'<\\(\d+)>'/g, (_, code: string) => {
      const token = PLACEHOLDER_TOKENS[code];
      return token === undefined ? `'char(${code})'` : `'${token}'`;
    })
    .replace(/(?<!')<eof>(?!')/g, "'<eof>'")
    .replace(/syntax error near/g, "'=' expected near")
    .replace(/break outside a loop at line \d+/g, 'no loop to break')
    .split(GOTO_NAME)
    .join('goto');
}

/** The `=` count of a long bracket opening at `start` (`[[` is 0), or -1 if there is none. */
function longBracketLevel(source: string, start: number): number {
  let i = start + 1;
  while (source[i] === '=') i++;
  return source[i] === '[' ? i - start - 1 : -1;
}

/** Index just after the long bracket (string or comment body) opening at `start`. */
function skipLongBracket(source: string, start: number): number {
  const level = longBracketLevel(source, start);
  const close = `]${'='.repeat(level)}]`;
  const end = source.indexOf(close, start + level + 2);
  return end < 0 ? source.length : end + close.length;
}

/** Index just after the comment starting at `start` (which points at `--`). */
function skipComment(source: string, start: number): number {
  if (source[start + 2] === '[' && longBracketLevel(source, start + 2) >= 0) {
    return skipLongBracket(source, start + 2);
  }
  const end = source.indexOf('\n', start);
  return end < 0 ? source.length : end;
}

/** Copies a quoted string, dropping the backslash of escapes 5.1 does not know. */
function rewriteShortString(source: string, start: number): [string, number] {
  const quote = source[start];
  let out = quote as string;
  let i = start + 1;
  while (i < source.length) {
    const c = source[i] as string;
    if (c === quote) return [out + c, i + 1];
    if (c === '\n') return [out, i];
    if (c === '\\') {
      const escaped = source[i + 1] ?? '';
      out += FIVE_ONE_ESCAPES.includes(escaped) && escaped !== '' ? c + escaped : escaped;
      i += 2;
      continue;
    }
    out += c;
    i++;
  }
  return [out, i];
}
