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
  // An explicit stack, not recursion: a reply nests up to ~8,000 arrays deep, as Redis allows,
  // deeper than a worker's JavaScript stack goes.
  const open: { items: Reply[]; left: number }[] = [];
  for (;;) {
    const kind = text[at];
    const head = line();
    let value: Reply;
    if (kind === '+') value = status(head);
    else if (kind === '-') value = error(head);
    else if (kind === ':') value = integer(BigInt(head));
    else if (kind === '$') {
      const length = Number(head);
      value = bulk(length < 0 ? null : text.slice(at, at + length));
      if (length >= 0) at += length + 2;
    } else {
      const count = Number(head);
      if (count > 0) {
        open.push({ items: [], left: count });
        continue;
      }
      value = array(count < 0 ? null : []);
    }
    // Hand the value to the arrays it completes.
    for (;;) {
      const parent = open[open.length - 1];
      if (!parent) return value;
      parent.items.push(value);
      if (--parent.left > 0) break;
      open.pop();
      value = array(parent.items);
    }
  }
}
