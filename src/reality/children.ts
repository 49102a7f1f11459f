import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A reaper's source: a detached process that holds the process group of every child the
 * harness starts (and every temporary directory it makes) and kills them all with SIGKILL (and
 * removes the directories) when its stdin closes, which happens when the harness exits for any
 * reason, SIGKILL included. Nothing the harness starts outlives it.
 */
const REAPER = `
const groups = new Set();
const dirs = new Set();
let line = '';
process.stdin.on('data', (chunk) => {
  line += chunk;
  for (let i; (i = line.indexOf('\\n')) >= 0; line = line.slice(i + 1)) {
    const [op, arg] = [line[0], line.slice(2, i)];
    if (op === 'd') dirs.add(arg); else if (op === '+') groups.add(Number(arg)); else groups.delete(Number(arg));
  }
});
process.stdin.on('end', () => {
  for (const pid of groups) { try { process.kill(-pid, 'SIGKILL'); } catch {} }
  for (const dir of dirs) require('fs').rmSync(dir, { recursive: true, force: true });
  process.exit(0);
});
`;

/**
 * Every process the harness starts, each the leader of its own process group (so a SIGSTOP,
 * SIGKILL or the final sweep reaches whatever it started too), and the reaper that sweeps
 * them up if the harness itself dies.
 */
export class Children {
  private readonly groups = new Set<number>();
  private readonly reaper: ChildProcess;

  constructor() {
    this.reaper = spawn(process.execPath, ['-e', REAPER], { detached: true, stdio: ['pipe', 'ignore', 'ignore'] });
    this.reaper.unref();
  }

  /** Starts `command` in a process group of its own, known to the reaper. */
  start(command: string, args: string[], options: SpawnOptions = {}): ChildProcess {
    const child = spawn(command, args, { ...options, detached: true });
    const pid = child.pid;
    if (pid === undefined) throw new Error(`could not start ${command}`);
    this.groups.add(pid);
    this.reaper.stdin!.write(`+ ${pid}\n`);
    child.once('exit', () => {
      this.groups.delete(pid);
      if (this.reaper.stdin!.writable) this.reaper.stdin!.write(`- ${pid}\n`);
    });
    return child;
  }

  /** A new temporary directory (`prefix` and a random tail) that the reaper removes if the harness dies. */
  tempDir(prefix: string): string {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    this.reaper.stdin!.write(`d ${dir}\n`);
    return dir;
  }

  /** Sends `signal` to a child's whole process group. */
  signal(child: ChildProcess, signal: NodeJS.Signals): void {
    if (child.pid !== undefined && this.groups.has(child.pid)) process.kill(-child.pid, signal);
  }

  /** Kills every child (SIGCONT first, so a stopped one dies at once) and lets the reaper go. */
  stopAll(): void {
    for (const pid of this.groups) {
      for (const signal of ['SIGKILL', 'SIGCONT'] as const) {
        try {
          process.kill(-pid, signal);
        } catch {
          // Already gone.
        }
      }
    }
    this.groups.clear();
    this.reaper.stdin!.end();
  }
}
