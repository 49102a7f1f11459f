import { describe, expect, it } from 'vitest';
import { Kernel, type FrozenTask, type Owner } from './kernel';

function owner(id: string) {
  const state = { mode: 'run' as 'run' | 'freeze' | 'drop', pausedAt: 0, frozen: [] as FrozenTask[] };
  const o: Owner = { id, disposition: () => state.mode, freeze: (t) => void state.frozen.push(t), pausedAtMs: () => state.pausedAt };
  return { o, state };
}

describe('Kernel', () => {
  it('runs callbacks in (time, seq) order and advances virtual time without waiting', () => {
    const k = new Kernel();
    const log: string[] = [];
    k.schedule(5000, null, 'timer', () => log.push(`b@${k.now}`));
    k.schedule(10, null, 'timer', () => log.push(`a@${k.now}`));
    k.schedule(5000, null, 'timer', () => log.push(`c@${k.now}`));
    while (k.step());
    expect(log).toEqual(['a@10', 'b@5000', 'c@5000']);
  });

  it('drops cancelled callbacks from the agenda once they outnumber the rest, keeping the order of the others', () => {
    const k = new Kernel();
    const log: number[] = [];
    const handles = Array.from({ length: 300 }, (_, i) => k.schedule(1000 + (i % 7), null, 'timer', () => log.push(i)));
    handles.forEach((h, i) => i % 3 !== 0 && k.cancel(h));
    expect(k.pending).toBeLessThan(200);
    while (k.step());
    const kept = handles.map((_, i) => i).filter((i) => i % 3 === 0);
    expect(log).toEqual(kept.sort((a, b) => (a % 7) - (b % 7) || a - b));
  });

  it('does not count cancelled callbacks as something left to do', () => {
    const k = new Kernel();
    k.schedule(5, null, 'timer', () => {});
    k.cancel(k.schedule(20_000, null, 'timer', () => {}));
    expect(k.step()).toBe(true);
    expect(k.nextAt()).toBeUndefined();
    expect(k.now).toBe(5);
  });

  it('skips cancelled callbacks', () => {
    const k = new Kernel();
    const log: string[] = [];
    const h = k.schedule(1, null, 'timer', () => log.push('cancelled'));
    k.schedule(2, null, 'timer', () => log.push('kept'));
    k.cancel(h);
    while (k.step());
    expect(log).toEqual(['kept']);
  });

  it('freezes a paused owner\'s timer and keeps its remaining delay on thaw', () => {
    const k = new Kernel();
    const { o, state } = owner('A');
    const log: number[] = [];
    k.schedule(6000, o, 'timer', () => log.push(k.now));
    k.schedule(2000, null, 'system', () => Object.assign(state, { mode: 'freeze', pausedAt: 2000 }));
    k.schedule(17000, null, 'system', () => {
      state.mode = 'run';
      k.thaw(o, state.frozen.splice(0));
    });
    while (k.step());
    // 4 s of the timer were left when the pause began; it fires 4 s after the resume.
    expect(log).toEqual([21000]);
  });

  it('holds a message for a paused owner until it resumes, and drops work for a crashed one', () => {
    const k = new Kernel();
    const paused = owner('P');
    const crashed = owner('C');
    const log: string[] = [];
    paused.state.mode = 'freeze';
    crashed.state.mode = 'drop';
    k.schedule(5, paused.o, 'message', () => log.push(`P@${k.now}`));
    k.schedule(5, crashed.o, 'message', () => log.push('C'));
    k.schedule(100, null, 'system', () => {
      paused.state.mode = 'run';
      k.thaw(paused.o, paused.state.frozen.splice(0));
    });
    while (k.step());
    expect(log).toEqual(['P@100']);
  });

  it('refuses to schedule into the past', () => {
    expect(() => new Kernel().schedule(-1, null, 'timer', () => {})).toThrow(/past/);
  });
});

describe('Kernel drop hook', () => {
  it('runs the drop callback instead of the task when the owner has crashed', () => {
    const k = new Kernel();
    const crashed = owner('C');
    crashed.state.mode = 'drop';
    const log: string[] = [];
    k.schedule(5, crashed.o, 'message', () => log.push('ran'), () => log.push(`dropped@${k.now}`));
    while (k.step());
    expect(log).toEqual(['dropped@5']);
    expect(k.executed).toBe(0);
  });
});
