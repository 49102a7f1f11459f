import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readlinkSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';

/** The processes whose parent is `pid`. */
function childrenOf(pid: number): { pid: number; command: string }[] {
  const out = execFileSync('ps', ['-eo', 'pid=,ppid=,args='], { encoding: 'utf8' });
  return out
    .split('\n')
    .map((line) => /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null && Number(m[2]) === pid)
    .map((m) => ({ pid: Number(m[1]), command: m[3]! }));
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Nothing the harness starts outlives it: the harness is killed in the middle of a run (lesson
 * 21's Redlock pause at full scale, 19 s: five redis-servers, the resource and two clients;
 * lesson 9's failover) and every process it had started is gone soon after.
 * SIGTERM is handled by the harness itself; SIGKILL cannot be, and is the reaper's job.
 */
const RUNS = [
  { spec: 'lessons/21-redlock-pauses-and-delays.md#c2-redlock-pause', signal: 'SIGTERM' },
  { spec: 'lessons/21-redlock-pauses-and-delays.md#c2-redlock-pause', signal: 'SIGKILL' },
  // Lesson 9's failover: a primary, its replica and three sentinels (eight processes again), and
  // the sentinels' temporary directory of config files, which the reaper removes too.
  { spec: 'lessons/scenarios/failover-lost-lock.yaml', signal: 'SIGKILL' },
] as const;

/** The directory a sentinel runs in (its config's `dir`): where its config file is. */
function sentinelDir(pid: number): string | null {
  try {
    const dir = readlinkSync(`/proc/${pid}/cwd`);
    return /lockstep-sentinel-/.test(dir) ? dir : null;
  } catch {
    return null;
  }
}

describe.concurrent('the harness cleans up', () => {
  for (const { spec, signal } of RUNS) {
    it(`leaves no process behind when it gets ${signal} in the middle of ${spec}`, async () => {
      const harness = spawn(process.execPath, ['--import', 'tsx', 'src/cli/reality.ts', spec, '--scale', '1'], {
        stdio: 'ignore',
      });
      const exited = new Promise((resolve) => harness.once('exit', resolve));
      let started: { pid: number; command: string }[] = [];
      // Wait for the run to be under way: the five redis-servers, the resource and both clients.
      for (
        let i = 0;
        i < 900 &&
        started.filter((c) => /redis-server|reality\/(lockClient|resource)-[0-9a-f]+\.mjs/.test(c.command)).length < 8;
        i++
      ) {
        await sleep(100);
        started = childrenOf(harness.pid!);
      }
      expect(
        started.filter((c) => /redis-server|reality\/(lockClient|resource)-[0-9a-f]+\.mjs/.test(c.command)),
      ).toHaveLength(8);
      await sleep(1000);
      const dirs = started.map((c) => sentinelDir(c.pid)).filter((d) => d !== null);
      expect(dirs.length > 0).toBe(spec.includes('failover'));
      harness.kill(signal);
      await exited;
      let left = started.filter((c) => alive(c.pid));
      for (let i = 0; i < 50 && left.length > 0; i++) {
        await sleep(100);
        left = left.filter((c) => alive(c.pid));
      }
      expect(left.map((c) => c.command)).toEqual([]);
      let kept = dirs.filter((d) => existsSync(d));
      for (let i = 0; i < 50 && kept.length > 0; i++) {
        await sleep(100);
        kept = kept.filter((d) => existsSync(d));
      }
      expect(kept).toEqual([]);
      // Starting a harness under tsx takes seconds on a loaded 2-core machine; the run itself is killed 1 s in.
    }, 120_000);
  }
});
