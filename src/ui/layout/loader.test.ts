import { describe, expect, it } from 'vitest';
import { loader } from './loader';

describe('a chunk loaded on first use', () => {
  it('is fetched once however often it is asked for, and known at once after it arrived', async () => {
    let fetches = 0;
    const load = loader(() => {
      fetches++;
      return Promise.resolve('the sandbox');
    });
    expect(load.current()).toBeNull();
    const [a, b] = [load(), load()];
    expect(await a).toBe('the sandbox');
    expect(await b).toBe('the sandbox');
    expect(load.current()).toBe('the sandbox');
    await load();
    expect(fetches).toBe(1);
  });

  it('is fetched again after a failed fetch (the connection came back), not stuck on the failure', async () => {
    let fetches = 0;
    const load = loader(() =>
      ++fetches === 1 ? Promise.reject(new Error('offline')) : Promise.resolve('the dashboard'),
    );
    await expect(load()).rejects.toThrow('offline');
    expect(load.current()).toBeNull();
    expect(await load()).toBe('the dashboard');
    expect(fetches).toBe(2);
  });
});
