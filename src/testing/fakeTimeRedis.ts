import { fakeClock } from '../reality/fakeClock';
import { startRealRedis, type RealRedis } from './realRedis';

/**
 * A real redis-server whose wall clock the test can step forward and back while it runs, the
 * way a time daemon that corrects a clock all at once steps it (how: src/reality/fakeClock.ts).
 */
export interface FakeTimeRedis extends RealRedis {
  /** Sets the server clock's offset from real time, in whole seconds (negative: behind). */
  setOffsetSeconds(seconds: number): void;
}

/** Starts redis-server under libfaketime with its clock at real time (offset 0). */
export async function startFakeTimeRedis(): Promise<FakeTimeRedis> {
  const clock = fakeClock();
  const setOffsetSeconds = (seconds: number): void => {
    if (!Number.isInteger(seconds)) throw new Error(`offsets are whole seconds, got ${seconds}`);
    clock.setOffsetSeconds(seconds);
  };
  const redis = await startRealRedis(clock.env);
  return {
    ...redis,
    setOffsetSeconds,
    stop: async () => {
      await redis.stop();
      clock.remove();
    },
  };
}
