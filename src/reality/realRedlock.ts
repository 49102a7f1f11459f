import { REDLOCK } from '../actors/recipes/redlock';
import type { Ask, Master } from './masterConnection';
import type { ClientConfig } from './protocol';
import type { RealRecipe } from './realRecipe';

/**
 * Redlock on N real, independent redis-servers, as the simulator's recipe runs it
 * (src/actors/recipes/redlock.ts, whose commands and arithmetic these are): ask every master at
 * once, each with the instance timeout; hold the lock only with a majority of grants and a
 * positive validity = TTL − elapsed − drift, elapsed on this process's monotonic clock
 * (`performance.now`, which a wall-clock step does not move); otherwise unlock every master. Every
 * duration is in real milliseconds, so the drift's fixed 2 ms is 2 real ms, as a real library's is.
 */
export function redlockRecipe(config: ClientConfig, masters: readonly Master[], ask: Ask): RealRecipe {
  const { value, ttlRealMs } = config;
  const quorum = REDLOCK.quorum(masters.length);
  const timeout = config.redlock.instanceTimeoutMs;
  const everywhere = (argv: string[]) => Promise.all(masters.map((m) => ask(m, argv, timeout)));
  const releaseAll = async (key: string) =>
    (await everywhere(REDLOCK.releaseArgv(key, value))).some((a) => typeof a?.reply === 'number' && a.reply > 0);
  return {
    reentrant: false,
    async acquire(key) {
      const start = performance.now();
      const answers = await everywhere(REDLOCK.acquireArgv(key, value, ttlRealMs));
      const granted = answers.filter((a) => a?.reply === 'OK').length;
      const validityRealMs = REDLOCK.validityMs(config.redlock, ttlRealMs, performance.now() - start);
      if (granted >= quorum && validityRealMs > 0) return { ok: true, token: null, validityRealMs };
      // A failed round unlocks everywhere, so the minority it did get frees up at once.
      await releaseAll(key);
      return { ok: false, reason: 'busy' };
    },
    release: releaseAll,
    async renew(key) {
      const answers = await everywhere(REDLOCK.renewArgv(key, value, ttlRealMs));
      return answers.filter((a) => a?.reply === 1).length >= quorum ? 'renewed' : 'lost';
    },
  };
}
