/**
 * A step list's Redis commands at another speed. Every duration of a run is scaled on real
 * processes (`--scale 0.25`: a 4 s lease is 1 s), and a step writes its lease into the command
 * itself (`SET lock v NX PX 4000`, `EXPIRE lock 4`), so the command is rewritten with the
 * scaled length, in milliseconds: `EX`/`EXPIRE`/`SETEX` become `PX`/`PEXPIRE`/`PSETEX`, which
 * Redis answers the same way. The harness cannot tell which of a script's arguments are
 * durations, nor move an absolute expiry, so such a command runs only at real time (scale 1).
 */

/** Commands whose arguments hold a moment or a timeout this rewriting does not know. */
const UNSCALABLE = new Set([
  'EXPIREAT',
  'PEXPIREAT',
  'BLPOP',
  'BRPOP',
  'BLMOVE',
  'BRPOPLPUSH',
  'BZPOPMIN',
  'BZPOPMAX',
  'WAIT',
  'RESTORE',
]);

/** Placeholders stay as they are: `{ttl}` is filled with the scaled TTL when the step runs. */
const PLACEHOLDER = /^\{[a-z]+\}$/;

/**
 * `argv` with each duration it asks for multiplied by `scale` (at least 1 ms), or null when it
 * may hold one this cannot find (a script's numeric arguments, an absolute expiry).
 */
export function scaledCommand(argv: readonly string[], scale: number): string[] | null {
  if (scale === 1) return [...argv];
  const ms = (text: string, unitMs: number): string | null => {
    if (PLACEHOLDER.test(text)) return text;
    const n = Number(text);
    return Number.isFinite(n) && n > 0 ? String(Math.max(1, Math.round(n * unitMs * scale))) : null;
  };
  const name = (argv[0] ?? '').toUpperCase();
  if (UNSCALABLE.has(name)) return null;
  switch (name) {
    case 'EVAL':
    case 'EVALSHA': {
      const args = argv.slice(3 + (Number(argv[2]) || 0));
      return args.some((a) => a.trim() !== '' && Number.isFinite(Number(a))) ? null : [...argv];
    }
    case 'EXPIRE':
    case 'PEXPIRE':
    case 'SETEX':
    case 'PSETEX': {
      const length = ms(argv[2] ?? '', name.startsWith('P') ? 1 : 1000);
      if (length === null) return null;
      const inMs = name === 'EXPIRE' ? 'PEXPIRE' : name === 'SETEX' ? 'PSETEX' : name;
      return [inMs, argv[1]!, length, ...argv.slice(3)];
    }
    case 'SET':
    case 'GETEX': {
      const out = [...argv];
      for (let i = 1; i < out.length; i++) {
        const option = out[i]!.toUpperCase();
        if (option === 'PXAT' || option === 'EXAT') return null;
        if ((option === 'PX' || option === 'EX') && i + 1 < out.length) {
          const length = ms(out[i + 1]!, option === 'PX' ? 1 : 1000);
          if (length === null) return null;
          out[i] = 'PX';
          out[i + 1] = length;
          i++;
        }
      }
      return out;
    }
    default:
      return [...argv];
  }
}

/**
 * The lease a command gives its key, in the command's own milliseconds: `PX`/`EX` of a `SET`,
 * `PSETEX`/`SETEX`, or a script's `'PX', ARGV[n]` (the lease is its n-th argument); null when
 * the command sets no expiry, undefined when it cannot be read from the command.
 */
export function commandLeaseMs(argv: readonly string[]): number | null | undefined {
  const name = (argv[0] ?? '').toUpperCase();
  const number = (text: string | undefined, unitMs: number) => {
    const n = Number(text);
    return Number.isFinite(n) && n > 0 ? n * unitMs : undefined;
  };
  if (name === 'SETNX') return null;
  if (name === 'SETEX' || name === 'PSETEX') return number(argv[2], name === 'SETEX' ? 1000 : 1);
  if (name === 'SET') {
    const at = argv.findIndex((a, i) => i > 2 && /^(PX|EX)$/i.test(a));
    return at < 0 ? null : number(argv[at + 1], argv[at]!.toUpperCase() === 'PX' ? 1 : 1000);
  }
  if (name === 'EVAL') {
    const lease = /['"](PX|EX)['"]\s*,\s*(?:ARGV\[(\d+)\]|(\d+))/i.exec(argv[1] ?? '');
    if (!lease) return undefined;
    const keys = Number(argv[2]) || 0;
    const text = lease[2] === undefined ? lease[3] : argv[2 + keys + Number(lease[2])];
    return number(text, lease[1]!.toUpperCase() === 'PX' ? 1 : 1000);
  }
  return undefined;
}
