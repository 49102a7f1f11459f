import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A wall clock that can be stepped forward and back in a running redis-server, the way a time
 * daemon that corrects a clock all at once steps it (the clock-jump differential test, the
 * reality check's `clock-jump`).
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
const LIB_DIRS = [
  '/usr/lib/x86_64-linux-gnu',
  '/usr/lib/aarch64-linux-gnu',
  '/lib/x86_64-linux-gnu',
  '/lib/aarch64-linux-gnu',
  '/usr/lib',
];

function findLibrary(relative: string): string | undefined {
  return LIB_DIRS.map((dir) => join(dir, relative)).find((path) => existsSync(path));
}

/** Throws a clear error when Debian's libfaketime (package faketime) is not installed. */
function requireFakeTime(): { faketime: string; mallocDebug: string } {
  const faketime = findLibrary('faketime/libfaketime.so.1');
  const mallocDebug = findLibrary('libc_malloc_debug.so.0');
  if (faketime === undefined) {
    throw new Error(
      "libfaketime is not installed, so no redis-server clock can be stepped (the clock-jump differential test, the reality check's clock jumps). Install Debian's faketime (apt-get install faketime) or run .ci/ensureSystemDeps.sh.",
    );
  }
  if (mallocDebug === undefined)
    throw new Error('glibc libc_malloc_debug.so.0 was not found (glibc 2.34 or newer has it).');
  return { faketime, mallocDebug };
}

/**
 * A libfaketime control file and the environment that makes a process read its wall clock
 * through it, at offset 0 until `setOffsetSeconds` moves it. `remove` deletes the file.
 */
export function fakeClock(): {
  env: NodeJS.ProcessEnv;
  setOffsetSeconds: (seconds: number) => void;
  remove: () => void;
} {
  const { faketime, mallocDebug } = requireFakeTime();
  const dir = mkdtempSync(join(tmpdir(), 'lockstep-faketime-'));
  const control = join(dir, 'faketimerc');
  const setOffsetSeconds = (seconds: number): void => {
    if (!Number.isFinite(seconds)) throw new Error(`a clock offset is a number of seconds, got ${seconds}`);
    // libfaketime reads fractions ("+2.5"); three decimals keep it to whole milliseconds.
    writeFileSync(control, `${seconds >= 0 ? '+' : '-'}${Number(Math.abs(seconds).toFixed(3))}\n`);
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
  return { env, setOffsetSeconds, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
