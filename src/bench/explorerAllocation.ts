/**
 * What one explorer run allocates, in Node: the runs of bench:ui's throughput figure (the
 * fixtures' token-checked DEL, single-writer, explorer seed 1, schedules 0, 1, 2...), made here
 * one after another, and measured by what V8 counts rather than by the clock, so the figure
 * does not move with other work on the machine.
 *
 * - bytes_per_run: heap bytes allocated per run. Exact when Node is started with a young
 *   generation large enough that no collection happens while measuring
 *   (`--max-semi-space-size=1024 --min-semi-space-size=1024`); otherwise null.
 * - scavenges_per_1000_runs / mark_sweeps_per_1000_runs: collections at Node's default heap sizes.
 * - promoted_bytes_per_run: what outlived young collections (old-space growth between full
 *   collections), at Node's default heap sizes. A run's objects should all die young; what is
 *   promoted is copied by the scavenger and then marked and swept by a full collection.
 * - top: with `--profile`, the functions that allocate most (V8's sampling heap profiler,
 *   counting objects that died young too), in bytes per run.
 *
 * Bundle it first, as `npm run bench` does (tsx changes what closures cost):
 *   npx esbuild src/bench/explorerAllocation.ts --bundle --platform=node --format=esm --packages=external \
 *     --outfile=node_modules/.cache/lockstep/alloc.mjs --log-level=warning
 *   node --max-semi-space-size=1024 --min-semi-space-size=1024 node_modules/.cache/lockstep/alloc.mjs
 *   node node_modules/.cache/lockstep/alloc.mjs            # collections at default sizes
 *   node node_modules/.cache/lockstep/alloc.mjs --profile  # where the bytes go
 */
import { readFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { PerformanceObserver, constants } from 'node:perf_hooks';
import { getHeapSpaceStatistics } from 'node:v8';
import { searchBatch } from '../check/explorer';
import { scenarioExplorer } from '../scenario/running/explore';
import { parseScenario } from '../scenario/text/parse';
import { loadScriptEngine } from '../scenario/running/run';

const RUNS = 1000;
const WARM_UP_RUNS = 300;
/** Runs per heap reading: a chunk during which a collection ran is left out of bytes_per_run. */
const CHUNK_RUNS = 50;

interface ProfileNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: ProfileNode[];
}

async function main(): Promise<void> {
  const file = 'src/lessons/fixtures/e2e/scenarios/untokened-del-fixed.yaml';
  const parsed = parseScenario(readFileSync(file, 'utf8'), { file, line: 1 });
  if (!parsed.ok) throw new Error(parsed.diagnostics.map((d) => d.message).join('\n'));
  const explorer = scenarioExplorer(
    parsed.scenario,
    { invariant: 'single-writer', explorerSeed: 1 },
    await loadScriptEngine(),
  );
  // Schedules 0..RUNS-1 over and over: the warm-up compiles the paths the measurement takes.
  let next = 0;
  const runs = (n: number) => {
    for (let i = 0; i < n; i++, next = (next + 1) % RUNS) {
      const batch = searchBatch(explorer, next, next + 1);
      if (batch.failing !== null)
        throw new Error(
          `schedule ${batch.failing} breaks single-writer: this figure needs a recipe no schedule breaks`,
        );
    }
  };
  runs(WARM_UP_RUNS);

  // Heap growth over chunks of runs in which no collection happened is what those runs allocated.
  const gcs: { startMs: number; endMs: number; kind: number }[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      gcs.push({
        startMs: entry.startTime,
        endMs: entry.startTime + entry.duration,
        kind: (entry as unknown as { detail: { kind: number } }).detail.kind,
      });
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  const chunks: { startMs: number; endMs: number; bytes: number; promoted: number }[] = [];
  for (let from = 0; from < RUNS; from += CHUNK_RUNS) {
    const startMs = performance.now();
    const before = process.memoryUsage().heapUsed;
    const oldBefore = oldSpaceUsed();
    runs(CHUNK_RUNS);
    chunks.push({
      startMs,
      endMs: performance.now(),
      bytes: process.memoryUsage().heapUsed - before,
      promoted: oldSpaceUsed() - oldBefore,
    });
  }
  // GC entries arrive asynchronously.
  await new Promise((resolve) => setTimeout(resolve, 50));
  observer.disconnect();
  const clean = chunks.filter((c) => !gcs.some((gc) => gc.startMs < c.endMs && gc.endMs > c.startMs));
  const count = (kind: number) => gcs.filter((gc) => gc.kind === kind).length;
  // Old-space growth over chunks without a full collection: what survived young collections.
  const unswept = chunks.filter(
    (c) =>
      !gcs.some(
        (gc) => gc.kind === constants.NODE_PERFORMANCE_GC_MAJOR && gc.startMs < c.endMs && gc.endMs > c.startMs,
      ),
  );
  console.log(
    JSON.stringify({
      name: 'explorer.alloc',
      runs: RUNS,
      bytes_per_run:
        clean.length === 0
          ? null
          : Math.round(clean.reduce((sum, c) => sum + c.bytes, 0) / (clean.length * CHUNK_RUNS)),
      chunks_without_gc: `${clean.length}/${chunks.length}`,
      promoted_bytes_per_run:
        unswept.length === 0
          ? null
          : Math.round(unswept.reduce((sum, c) => sum + c.promoted, 0) / (unswept.length * CHUNK_RUNS)),
      scavenges_per_1000_runs: Math.round((count(constants.NODE_PERFORMANCE_GC_MINOR) * 1000) / RUNS),
      mark_sweeps_per_1000_runs: Math.round((count(constants.NODE_PERFORMANCE_GC_MAJOR) * 1000) / RUNS),
    }),
  );

  if (process.argv.includes('--profile'))
    console.log(JSON.stringify({ name: 'explorer.alloc.top', top: await topAllocators(() => runs(RUNS), RUNS) }));
}

function oldSpaceUsed(): number {
  return getHeapSpaceStatistics().find((space) => space.space_name === 'old_space')?.space_used_size ?? 0;
}

/** The functions that allocate most while `work` runs (sampled, so a few percent either way), in bytes per run. */
async function topAllocators(work: () => void, runs: number): Promise<string[]> {
  const session = new Session();
  session.connect();
  const post = (method: string, params: object = {}) =>
    new Promise<Record<string, unknown>>((resolve, reject) =>
      session.post(method, params, (error, result) =>
        error ? reject(error) : resolve(result as Record<string, unknown>),
      ),
    );
  await post('HeapProfiler.enable');
  await post('HeapProfiler.startSampling', {
    samplingInterval: 256,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  work();
  const { profile } = (await post('HeapProfiler.stopSampling')) as { profile: { head: ProfileNode } };
  session.disconnect();
  const bySelf = new Map<string, number>();
  let total = 0;
  const name = ({ functionName, url, lineNumber }: ProfileNode['callFrame']) =>
    `${functionName || '(anonymous)'} ${url.split('/').slice(-2).join('/')}:${lineNumber + 1}`;
  // A built-in (Set, sort, push...) is named with its caller, which is what one would change.
  // XState's own functions are named with the function of ours that called into XState.
  const byEntry = new Map<string, number>();
  const walk = (node: ProfileNode, caller: string, entry: string) => {
    const own = name(node.callFrame);
    const inXState = node.callFrame.url.includes('xstate');
    const ours = node.callFrame.url !== '' && !inXState;
    if (inXState || (node.callFrame.url === '' && entry !== ''))
      byEntry.set(entry, (byEntry.get(entry) ?? 0) + node.selfSize);
    const nextEntry = ours ? '' : inXState && entry === '' ? caller : entry;
    const key = node.callFrame.url === '' ? `${node.callFrame.functionName} in ${caller}` : own;
    bySelf.set(key, (bySelf.get(key) ?? 0) + node.selfSize);
    total += node.selfSize;
    for (const child of node.children) walk(child, node.callFrame.url === '' ? caller : own, nextEntry);
  };
  walk(profile.head, '(root)', '');
  // XState's cost per event is the design's (DESIGN §4); the functions of ours are listed apart.
  const rows = [...bySelf]
    .filter(([key]) => !key.includes('xstate') && !key.includes('dist/'))
    .sort((a, b) => b[1] - a[1])
    .slice(0, 50);
  const byFile = new Map<string, number>();
  for (const [key, bytes] of bySelf) {
    const file = key.split(' ').at(-1)!.replace(/:\d+$/, '');
    byFile.set(file, (byFile.get(file) ?? 0) + bytes);
  }
  const files = [...byFile].sort((a, b) => b[1] - a[1]).slice(0, 8);
  return [
    `total ${Math.round(total / runs)} B/run`,
    ...files.map(([file, bytes]) => `${Math.round(bytes / runs)} B/run in ${file}`),
    ...[...byEntry]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 12)
      .map(([key, bytes]) => `${Math.round(bytes / runs)} B/run in XState, called from ${key}`),
    ...rows.map(([key, bytes]) => `${Math.round(bytes / runs)} B/run ${key}`),
  ];
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
