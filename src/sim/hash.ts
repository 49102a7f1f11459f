/**
 * A 64-bit FNV-1a hash built from two 32-bit lanes, in plain integer arithmetic so Node and
 * every browser compute the same digest for the same text.
 */
export class Hash64 {
  private hi = 0xcbf29ce4;
  private lo = 0x84222325;

  update(text: string): this {
    let { hi, lo } = this;
    for (let i = 0; i < text.length; i++) {
      lo = (lo ^ text.charCodeAt(i)) >>> 0;
      // Multiply the 64-bit state by FNV's prime 0x100000001b3, 32 bits at a time.
      const loMul = lo * 0x1b3;
      const carry = Math.floor(loMul / 0x100000000);
      hi = (Math.imul(hi, 0x1b3) + Math.imul(lo, 0x100) + carry) >>> 0;
      lo = loMul >>> 0;
    }
    this.hi = hi;
    this.lo = lo;
    return this;
  }

  hex(): string {
    return this.hi.toString(16).padStart(8, '0') + this.lo.toString(16).padStart(8, '0');
  }
}
