import { closeSync, openSync, readSync } from 'node:fs';

/**
 * Reads at most `maxChars` characters of a text file (Node only), and one more when the file is
 * longer, so the bounds in `scenario/inputBounds.ts` can refuse it: a lesson generated with a
 * million steps, or `/dev/zero` given as a scenario, costs one bounded read instead of all the
 * memory the machine has. UTF-8 takes at most four bytes a character, hence the byte budget.
 */
export function readBounded(path: string, maxChars: number): string {
  const budget = (maxChars + 1) * 4;
  const buffer = Buffer.alloc(Math.min(budget, 1 << 16));
  const chunks: Buffer[] = [];
  let total = 0;
  const fd = openSync(path, 'r');
  try {
    while (total < budget) {
      const n = readSync(fd, buffer, 0, Math.min(buffer.length, budget - total), null);
      if (n === 0) break;
      chunks.push(Buffer.from(buffer.subarray(0, n)));
      total += n;
    }
  } finally {
    closeSync(fd);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  return text.length > maxChars + 1 ? text.slice(0, maxChars + 1) : text;
}
