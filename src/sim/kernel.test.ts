import { describe, expect, it } from 'vitest';
import { Kernel, type FrozenTask, type Owner } from './kernel';

function owner(id: string) {
  const state = { mode: 'run' as 'run' | 'freeze' | 'drop', frozen: [] as FrozenTask[] };
  const o: Owner = { id, disposition: () => state.mode, freeze: (t) => void state.frozen.push(t) };
  return { o, state };
}

describe('Kernel', () => {
  it('runs callbacks in (time, seq) order and advances virtual time without waiting', () => {
    const k = new Kernel();
    const log: string[] = [];
    k.schedule(5000, null, () => log.push(`b@${k.now}`));
    k.schedule(10, null, () => log.push(`a@${k.now}`));
    k.schedule(5000, null, () => log.push(`c@${k.now}`));
    while (k.step());
    expect(log).toEqual(['a@10', 'b@5000', 'c@5000']);
  });

  it('drops cancelled callbacks from the agenda once they outnumber the rest, keeping the order of the others', () => {
    const k = new Kernel();
    const log: number[] = [];
    const handles = Array.from({ length: 300 }, (_, i) => k.schedule(1000 + (i % 7), null, () => log.push(i)));
    handles.forEach((h, i) => i % 3 !== 0 && k.cancel(h));
    expect(k.pending).toBeLessThan(200);
    while (k.step());
    const kept = handles.map((_, i) => i).filter((i) => i % 3 === 0);
    expect(log).toEqual(kept.sort((a, b) => (a % 7) - (b % 7) || a - b));
  });

  it('does not count cancelled callbacks as something left to do', () => {
    const k = new Kernel();
    k.schedule(5, null, () => {});
    k.cancel(k.schedule(20_000, null, () => {}));
    expect(k.step()).toBe(true);
    expect(k.nextAt()).toBeUndefined();
    expect(k.now).toBe(5);
  });

  it('skips cancelled callbacks', () => {
    const k = new Kernel();
    const log: string[] = [];
    const h = k.schedule(1, null, () => log.push('cancelled'));
    k.schedule(2, null, () => log.push('kept'));
    k.cancel(h);
    while (k.step());
    expect(log).toEqual(['kept']);
  });

  it('holds a timer that falls due while its owner is paused and fires it at the resume', () => {
    const k = new Kernel();
    const { o, state } = owner('A');
    const log: number[] = [];
    k.schedule(6000, o, () => log.push(k.now));
    k.schedule(2000, null, () => (state.mode = 'freeze'));
    k.schedule(17000, null, () => {
      state.mode = 'run';
      k.thaw(o, state.frozen.splice(0));
    });
    while (k.step());
    // Its deadline (6 s) passed during the pause: it is overdue, not 4 s away.
    expect(log).toEqual([17000]);
  });

  it('runs what fell due during a pause in the order it fell due, after nothing else due then', () => {
    const k = new Kernel();
    const { o, state } = owner('A');
    const log: string[] = [];
    k.schedule(9000, o, () => log.push(`late@${k.now}`));
    k.schedule(3000, o, () => log.push(`early@${k.now}`));
    k.schedule(1000, null, () => (state.mode = 'freeze'));
    k.schedule(10000, null, () => {
      state.mode = 'run';
      k.thaw(o, state.frozen.splice(0));
      k.schedule(0, null, () => log.push(`after@${k.now}`));
    });
    while (k.step());
    expect(log).toEqual(['early@10000', 'late@10000', 'after@10000']);
  });

  it('holds a message for a paused owner until it resumes, and drops work for a crashed one', () => {
    const k = new Kernel();
    const paused = owner('P');
    const crashed = owner('C');
    const log: string[] = [];
    paused.state.mode = 'freeze';
    crashed.state.mode = 'drop';
    k.schedule(5, paused.o, () => log.push(`P@${k.now}`));
    k.schedule(5, crashed.o, () => log.push('C'));
    k.schedule(100, null, () => {
      paused.state.mode = 'run';
      k.thaw(paused.o, paused.state.frozen.splice(0));
    });
    while (k.step());
    expect(log).toEqual(['P@100']);
  });

  it('refuses a delay that is negative, not a number or endless, naming it', () => {
    for (const delay of [-1, Number.NaN, Infinity]) {
      expect(() => new Kernel().schedule(delay, null, () => {})).toThrow(
        new RegExp(`Cannot schedule a callback ${delay} ms from now`),
      );
    }
  });
});

describe('Kernel drop hook', () => {
  it('runs the drop callback instead of the task when the owner has crashed', () => {
    const k = new Kernel();
    const crashed = owner('C');
    crashed.state.mode = 'drop';
    const log: string[] = [];
    k.schedule(
      5,
      crashed.o,
      () => log.push('ran'),
      () => log.push(`dropped@${k.now}`),
    );
    while (k.step());
    expect(log).toEqual(['dropped@5']);
    expect(k.executed).toBe(0);
  });
});
