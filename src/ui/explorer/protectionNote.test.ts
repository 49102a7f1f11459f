import { describe, expect, it } from 'vitest';
import { parseScenario } from '../../scenario/text/parse';
import { protectionNote } from './protectionNote';

function scenario(fencing: boolean) {
  const parsed = parseScenario(
    `id: s\ntitle: S\nclients:\n  - { id: A, recipe: lease-with-token, ttl: 1s, work: 2s }\nresource: { id: espresso, fencing: ${fencing} }\n`,
    { file: 's.yaml', line: 1 },
  );
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.diagnostics));
  return parsed.scenario;
}

describe('what Break it adds when fencing was never going to hold the invariant', () => {
  it('says what fencing promises when single writer or single holder breaks behind a fence', () => {
    expect(protectionNote(scenario(true), 'single-writer')).toMatch(
      /^Fencing is on, and it does not promise one writer at a time: .* Break "writes in lease order"/,
    );
    expect(protectionNote(scenario(true), 'single-holder')).toMatch(
      /does not promise one client at a time that believes it holds the lock/,
    );
  });

  it('says nothing without a fence, or for what a fence does promise', () => {
    expect(protectionNote(scenario(false), 'single-writer')).toBeNull();
    expect(protectionNote(scenario(true), 'writes-in-lease-order')).toBeNull();
  });
});
