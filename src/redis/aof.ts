import type { AppendFsync } from './config';

/**
 * The append-only file as far as losing data goes. Redis writes each command's effects to the
 * file (the OS page cache) before it answers the client; what differs between policies is when
 * the page cache reaches the disk (fsync):
 * - always: before the reply, so nothing acknowledged is ever lost;
 * - everysec: once a second, so a power loss forgets about the last second;
 * - no: whenever the OS flushes (Linux: dirty pages older than ~30 s).
 * A process crash (kill -9) loses nothing that was written: the page cache belongs to the OS.
 * A power loss keeps only what was fsynced.
 */
export class AppendOnlyFile {
  /** Every command written to the file, in order. */
  private written: string[][] = [];
  /** How many of `written` are on disk. */
  private synced = 0;
  private lastSyncMs: number;

  constructor(
    readonly policy: AppendFsync,
    nowMs: number,
    /** Commands already on disk (the file as it was loaded at startup). */
    loaded: string[][] = [],
  ) {
    this.written = [...loaded];
    this.synced = this.written.length;
    this.lastSyncMs = nowMs;
  }

  /** How long the OS keeps dirty pages before writing them out, for `appendfsync no`. */
  static readonly OS_FLUSH_MS = 30_000;

  /** Appends one command's effects (already written to the page cache when this returns). */
  append(effects: readonly string[][]): void {
    this.written.push(...effects.map((argv) => [...argv]));
    if (this.policy === 'always') this.synced = this.written.length;
  }

  /** Called from the server's cron: everysec fsyncs once a second, `no` when the OS would flush. */
  tick(nowMs: number): void {
    const periodMs = this.policy === 'everysec' ? 1000 : this.policy === 'no' ? AppendOnlyFile.OS_FLUSH_MS : 0;
    if (periodMs === 0 || nowMs - this.lastSyncMs < periodMs) return;
    this.synced = this.written.length;
    this.lastSyncMs = nowMs;
  }

  /** Commands written but not yet on disk: what a power loss now would forget. */
  get unsynced(): number {
    return this.written.length - this.synced;
  }

  /** What survives: after a crash the whole file, after a power loss only its fsynced part. */
  survivors(cause: 'crash' | 'power-loss'): string[][] {
    return cause === 'crash' ? this.written : this.written.slice(0, this.synced);
  }

  get length(): number {
    return this.written.length;
  }
}
