// A real Node process shaped like a lock client for `realPause.test.ts`: the job's work computes
// on a thread of its own (as on the JVM or Go, where the watchdog runs beside the work), then
// writes and exits; on the main thread, the watchdog's next renewal is a plain timer. It
// prints each thing that happens as a JSON line with the monotonic time since it started; the
// test stops it with SIGSTOP and resumes it with SIGCONT in between.
//
// argv: workCpuMs renewalAtMs
import { Worker } from 'node:worker_threads';

const [workCpuMs, renewalAtMs] = process.argv.slice(2).map(Number);
const start = performance.now();
const say = (what) => process.stdout.write(`${JSON.stringify({ what, at: Math.round(performance.now() - start) })}\n`);

// CPU time, not wall time: work stopped by SIGSTOP has made no progress when it resumes.
const work = new Worker(
  `const { parentPort, workerData } = require('node:worker_threads');
   const cpuMs = () => {
     const used = process.threadCpuUsage ? process.threadCpuUsage() : process.cpuUsage();
     return (used.user + used.system) / 1000;
   };
   parentPort.postMessage('computing');
   const from = cpuMs();
   while (cpuMs() - from < workerData);
   parentPort.postMessage('worked');`,
  { eval: true, workerData: workCpuMs },
);
work.on('message', (message) => {
  if (message === 'computing') {
    say('computing');
    setTimeout(() => say('renewal'), renewalAtMs);
  } else {
    say('write');
    process.exit(0);
  }
});
