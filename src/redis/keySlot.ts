/**
 * Redis Cluster's key → slot mapping: CRC16-XMODEM of the key (or of its hash tag, the text
 * between the first `{` and the next `}` when non-empty), modulo 16384.
 */

function crc16(bytes: string): number {
  let crc = 0;
  for (let i = 0; i < bytes.length; i++) {
    crc ^= (bytes.charCodeAt(i) & 0xff) << 8;
    for (let bit = 0; bit < 8; bit++) {
      crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
    }
  }
  return crc;
}

/** The cluster slot (0-16383) a key belongs to. */
export function keySlot(key: string): number {
  const open = key.indexOf('{');
  if (open !== -1) {
    const close = key.indexOf('}', open + 1);
    if (close !== -1 && close !== open + 1) return crc16(key.slice(open + 1, close)) & 16383;
  }
  return crc16(key) & 16383;
}
