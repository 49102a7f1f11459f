import { RedisServer } from './server';
import type { RedisServerOptions } from './serverOptions';
import { formatReply, parseCommandLine } from './cliFormat';

/**
 * A redis-cli session over one simulated server: feed it typed lines, get back exactly what
 * `redis-cli --no-raw` would print. The playground console and `npm run redis-sim` share it.
 */
export class CliSession {
  readonly server: RedisServer;
  /** Virtual milliseconds this session's clock has been advanced (DEBUG SLEEP, WAIT). */
  private advancedMs = 0;
  /** Set once the user typed `quit` or `exit`. */
  closed = false;

  constructor(
    private readonly startMs: number,
    options: Omit<RedisServerOptions, 'clock' | 'sleep'>,
  ) {
    this.server = new RedisServer({
      ...options,
      clock: () => this.nowMs(),
      sleep: (ms) => {
        this.advancedMs += ms;
      },
    });
  }

  /** The session's clock, unix ms (whole milliseconds, like Redis's mstime). */
  nowMs(): number {
    return Math.floor(this.startMs + this.advancedMs);
  }

  /**
   * Runs one typed line and returns redis-cli's output lines (possibly none). Handles what
   * redis-cli itself handles: blank lines, bad quoting, `quit`/`exit`, and a leading repeat
   * count (`3 INCR k`). Commands that take 500 ms or more of virtual time get redis-cli's
   * `(1.00s)` timing line.
   */
  runLine(line: string): string[] {
    if (this.closed) return [];
    const argv = parseCommandLine(line);
    if (argv === null) return ['Invalid argument(s)'];
    if (argv.length === 0) return [];
    const first = argv[0] as string;
    if (first.toLowerCase() === 'quit' || first.toLowerCase() === 'exit') {
      this.closed = true;
      return [];
    }
    let repeat = 1;
    let args = argv;
    if (argv.length > 1 && /^[ \t\n\v\f\r]*[+-]?[0-9]*$/.test(first)) {
      repeat = Number(first.trim() || '0');
      if (!(repeat > 0) || repeat > 2 ** 63) return ['Invalid redis-cli repeat command option value.'];
      args = argv.slice(1);
    }
    const out: string[] = [];
    for (let i = 0; i < repeat; i++) {
      const before = this.advancedMs;
      out.push(...formatReply(this.server.exec(args)).split('\n'));
      const elapsedMs = this.advancedMs - before;
      if (elapsedMs >= 500) out.push(`(${(elapsedMs / 1000).toFixed(2)}s)`);
    }
    return out;
  }
}
