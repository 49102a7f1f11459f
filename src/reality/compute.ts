/**
 * Work that takes `ms` of the process's running time, as the simulator's `Process.compute`:
 * a SIGSTOP stops it where it is, and it goes on after SIGCONT, while a sleep's deadline would
 * have passed during the stop. Done in short sleeps so a long job costs no CPU; a slice that
 * took far longer than asked (the process was stopped) counts only as the slice.
 */
export async function compute(ms: number): Promise<void> {
  const SLICE_MS = 4;
  const STOPPED_MS = 25;
  let done = 0;
  while (done < ms) {
    const slice = Math.min(SLICE_MS, ms - done);
    const started = performance.now();
    await new Promise((resolve) => setTimeout(resolve, slice));
    const took = performance.now() - started;
    done += took > slice + STOPPED_MS ? slice : took;
  }
}
