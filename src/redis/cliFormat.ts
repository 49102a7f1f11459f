import type { Reply } from './reply';

/**
 * What `redis-cli --no-raw` prints, and how it splits a typed line into arguments. Strings
 * are byte strings (one character per byte), as a terminal sends UTF-8 text to Redis.
 */

/** Quotes a bulk string like redis-cli's `sdscatrepr`: escapes, and \xHH for non-printable bytes. */
export function quoteBulk(bytes: string): string {
  let out = '"';
  for (let i = 0; i < bytes.length; i++) {
    const code = bytes.charCodeAt(i) & 0xff;
    const c = String.fromCharCode(code);
    if (c === '\\' || c === '"') out += `\\${c}`;
    else if (c === '\n') out += '\\n';
    else if (c === '\r') out += '\\r';
    else if (c === '\t') out += '\\t';
    else if (code === 7) out += '\\a';
    else if (code === 8) out += '\\b';
    else if (code >= 0x20 && code < 0x7f) out += c;
    else out += `\\x${code.toString(16).padStart(2, '0')}`;
  }
  return `${out}"`;
}

function formatWithPrefix(reply: Reply, prefix: string): string {
  switch (reply.type) {
    case 'error':
      return `(error) ${reply.value}\n`;
    case 'status':
      return `${reply.value}\n`;
    case 'integer':
      return `(integer) ${reply.value}\n`;
    case 'bulk':
      return reply.value === null ? '(nil)\n' : `${quoteBulk(reply.value)}\n`;
    case 'array': {
      if (reply.value === null) return '(nil)\n';
      if (reply.value.length === 0) return '(empty array)\n';
      const width = String(reply.value.length).length;
      const nested = prefix + ' '.repeat(width + 2);
      let out = '';
      reply.value.forEach((item, i) => {
        out += `${i === 0 ? '' : prefix}${String(i + 1).padStart(width)}) `;
        out += formatWithPrefix(item, nested);
      });
      return out;
    }
  }
}

/**
 * Formats a reply exactly as `redis-cli --no-raw` prints it, without the final newline.
 * @example formatReply({ type: 'integer', value: 1n }) === '(integer) 1'
 */
export function formatReply(reply: Reply): string {
  return formatWithPrefix(reply, '').replace(/\n$/, '');
}

const BLANK = /[ \t\n\v\f\r]/;
const HEX = /[0-9a-fA-F]/;

/**
 * Splits a command line like redis-cli (`sdssplitargs`): double quotes with escapes
 * (`\n`, `\x41` ...), single quotes with `\'`, and a closing quote must be followed by a
 * space. Returns null for unbalanced quotes, which redis-cli reports as `Invalid argument(s)`.
 */
export function parseCommandLine(line: string): string[] | null {
  const args: string[] = [];
  let p = 0;
  for (;;) {
    while (p < line.length && BLANK.test(line[p] as string)) p++;
    if (p >= line.length) return args;
    let current = '';
    let inDouble = false;
    let inSingle = false;
    for (let done = false; !done;) {
      const c = line[p];
      if (inDouble) {
        if (c === undefined) return null;
        if (c === '\\' && line[p + 1] === 'x' && HEX.test(line[p + 2] ?? '') && HEX.test(line[p + 3] ?? '')) {
          current += String.fromCharCode(parseInt(line.slice(p + 2, p + 4), 16));
          p += 3;
        } else if (c === '\\' && p + 1 < line.length) {
          p++;
          const escaped = line[p] as string;
          current += { n: '\n', r: '\r', t: '\t', b: '\b', a: '\x07' }[escaped] ?? escaped;
        } else if (c === '"') {
          if (p + 1 < line.length && !BLANK.test(line[p + 1] as string)) return null;
          done = true;
        } else current += c;
      } else if (inSingle) {
        if (c === undefined) return null;
        if (c === '\\' && line[p + 1] === "'") {
          p++;
          current += "'";
        } else if (c === "'") {
          if (p + 1 < line.length && !BLANK.test(line[p + 1] as string)) return null;
          done = true;
        } else current += c;
      } else if (c === undefined || c === ' ' || c === '\n' || c === '\r' || c === '\t') {
        done = true;
      } else if (c === '"') inDouble = true;
      else if (c === "'") inSingle = true;
      else current += c;
      if (p < line.length) p++;
    }
    args.push(current);
  }
}
