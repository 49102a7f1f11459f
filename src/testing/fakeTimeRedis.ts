import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startRealRedis, type RealRedis } from './realRedis';

/**
 * A real redis-server whose wall clock the test can step forward and back while it runs, the
 * way a time daemon that corrects a clock all at once steps it.
 *
 * Debian's libfaketime is preloaded and reads its offset from a control file on every call
 * (FAKETIME_TIMESTAMP_FILE with FAKETIME_NO_CACHE=1), so writing "+8" to the file moves the
 * server's `gettimeofday` 8 s ahead of real time at once. The monotonic clock is left alone
 * (FAKETIME_DONT_FAKE_MONOTONIC=1), as a real step leaves CLOCK_MONOTONIC alone: Redis's timers,
 * serverCron among them, keep their pace.
 *
 * Debian links redis-server against the shared libjemalloc, and libfaketime cannot start in a
 * process whose malloc is jemalloc (jemalloc's first allocation reads the clock, which
 * re-enters libfaketime before it is set up: libfaketime issue #130). glibc's
 * libc_malloc_debug.so, preloaded first, puts glibc's own allocator in front of jemalloc's, and
 * then both start. That changes only which allocator serves memory, nothing about time.
 */
export interface FakeTimeRedis extends RealRedis {
  /** Sets the server clock's offset from real time, in whole seconds (negative: behind). */
  setOffsetSeconds(seconds: number): void;
}

const LIB_DIRS = ['/usr/lib/x86_64-linux-gnu', '/usr/lib/aarch64-linux-gnu', '/lib/x86_64-linux-gnu', '/lib/aarch64-linux-gnu', '/usr/lib'];

function findLibrary(relative: string): string | undefined {
  return LIB_DIRS.map((dir) => join(dir, relative)).find((path) => existsSync(path));
}

/** Throws a clear error when Debian's libfaketime (package faketime) is not installed. */
export function requireFakeTime(): { faketime: string; mallocDebug: string } {
  const faketime = findLibrary('faketime/libfaketime.so.1');
  const mallocDebug = findLibrary('libc_malloc_debug.so.0');
  if (faketime === undefined) {
    throw new Error("libfaketime is not installed, so the clock-jump differential test cannot run. Install Debian's faketime (apt-get install faketime) or run .ci/ensureSystemDeps.sh.");
  }
  if (mallocDebug === undefined) throw new Error('glibc libc_malloc_debug.so.0 was not found (glibc 2.34 or newer has it).');
  return { faketime, mallocDebug };
}

/** Starts redis-server under libfaketime with its clock at real time (offset 0). */
export async function startFakeTimeRedis(): Promise<FakeTimeRedis> {
  const { faketime, mallocDebug } = requireFakeTime();
  const dir = mkdtempSync(join(tmpdir(), 'lockstep-faketime-'));
  const control = join(dir, 'faketimerc');
  const setOffsetSeconds = (seconds: number): void => {
    if (!Number.isInteger(seconds)) throw new Error(`offsets are whole seconds, got ${seconds}`);
    writeFileSync(control, `${seconds >= 0 ? '+' : '-'}${Math.abs(seconds)}\n`);
  };
  setOffsetSeconds(0);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    LD_PRELOAD: `${mallocDebug} ${faketime}`,
    FAKETIME_TIMESTAMP_FILE: control,
    FAKETIME_NO_CACHE: '1',
    FAKETIME_DONT_FAKE_MONOTONIC: '1',
  };
  // FAKETIME in the environment would win over the control file.
  delete env.FAKETIME;
  const redis = await startRealRedis(env);
  return {
    ...redis,
    setOffsetSeconds,
    stop: async () => {
      await redis.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
