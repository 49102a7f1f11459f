import type { ExplorerApi } from './explorerApi';

/** The explorer as the page reaches it: every call asynchronous, plus a wait for the Lua VM to load. */
export type ExplorerWorkerApi = {
  [K in keyof ExplorerApi]: (...args: Parameters<ExplorerApi[K]>) => Promise<ReturnType<ExplorerApi[K]>>;
} & {
  ready(): Promise<void>;
};

/** A running explorer that can be killed (a Web Worker, or an in-process stand-in in tests). */
export interface ExplorerHandle {
  api: ExplorerWorkerApi;
  terminate(): void;
}

/**
 * The explorer's workers: `size` slots, each started on first use and kept between searches
 * (a worker's Lua VM takes a moment to load). Stop terminates them all; a slot whose batch
 * overran is replaced alone. The next use of an empty slot starts a fresh worker.
 */
export class ExplorerPool {
  private readonly handles: (ExplorerHandle | null)[];

  constructor(
    private readonly start: () => ExplorerHandle,
    readonly size: number,
  ) {
    this.handles = Array.from({ length: size }, () => null);
  }

  /** The worker in slot `i`, started now if there is none. */
  worker(i: number): ExplorerHandle {
    return (this.handles[i] ??= this.start());
  }

  /** Kills the worker in slot `i`; the slot's next use starts a fresh one. */
  replace(i: number): void {
    this.handles[i]?.terminate();
    this.handles[i] = null;
  }

  /** Kills every worker (Stop). */
  terminateAll(): void {
    for (let i = 0; i < this.size; i++) this.replace(i);
  }
}

/** An explorer in this thread (Node tests and the bench's baseline): the same answers, asynchronously. */
export function inProcessExplorer(api: ExplorerApi): ExplorerHandle {
  return {
    api: {
      ready: () => Promise.resolve(),
      plan: (...args) => Promise.resolve(api.plan(...args)),
      search: (...args) => Promise.resolve(api.search(...args)),
      shrink: (...args) => Promise.resolve(api.shrink(...args)),
      exhaustPlan: (...args) => Promise.resolve(api.exhaustPlan(...args)),
      exhaustRange: (...args) => Promise.resolve(api.exhaustRange(...args)),
    },
    terminate: () => {},
  };
}
