import { array, bulk, error, integer, status, type Reply } from '../../reply';

// The glue (scripts/lua51/redisLua.c) and the host speak RESP2 across the WebAssembly boundary:
// one byte string each way instead of one call per Lua value.

/** A reply as RESP2 bytes (one character per byte). */
export function encodeResp2(reply: Reply): string {
  switch (reply.type) {
    case 'status':
      return `+${reply.value}\r\n`;
    case 'error':
      return `-${reply.value.replace(/[\r\n]/g, ' ')}\r\n`;
    case 'integer':
      return `:${reply.value}\r\n`;
    case 'bulk':
      return reply.value === null ? '$-1\r\n' : `$${reply.value.length}\r\n${reply.value}\r\n`;
    case 'array':
      return reply.value === null ? '*-1\r\n' : `*${reply.value.length}\r\n${reply.value.map(encodeResp2).join('')}`;
  }
}

/** Reads the RESP2 reply the glue wrote (well-formed: the glue made it). */
export function decodeResp2(text: string): Reply {
  let at = 0;
  const line = (): string => {
    const end = text.indexOf('\r\n', at);
    const value = text.slice(at + 1, end);
    at = end + 2;
    return value;
  };
  // Recursive: a reply nests at most ~8,000 tables deep (5.1's C stack limit), well within JS's stack.
  const read = (): Reply => {
    const kind = text[at];
    const head = line();
    switch (kind) {
      case '+':
        return status(head);
      case '-':
        return error(head);
      case ':':
        return integer(BigInt(head));
      case '$': {
        const length = Number(head);
        if (length < 0) return bulk(null);
        const value = text.slice(at, at + length);
        at += length + 2;
        return bulk(value);
      }
      default: {
        const count = Number(head);
        if (count < 0) return array(null);
        const items: Reply[] = [];
        for (let i = 0; i < count; i++) items.push(read());
        return array(items);
      }
    }
  };
  return read();
}
