import { describe, expect, it } from 'vitest';
import { formatDiagnostic } from '../diagnostic';
import { parseScenario } from './parse';

const stepClient = (...steps: string[]) =>
  [
    'id: s',
    'title: S',
    'clients:',
    '  - id: A',
    '    steps:',
    ...steps.map((s) => `      - ${s}`),
    'resource: { id: e }',
  ].join('\n');

const problems = (yaml: string) => {
  const r = parseScenario(yaml, { file: 'x.yaml', line: 1 });
  return r.ok ? [] : r.diagnostics.map(formatDiagnostic);
};

describe('step commands are checked with the simulated Redis own rules', () => {
  it('a misspelt command, with did you mean', () => {
    expect(problems(stepClient("{ redis: [SETT, lock, '{value}'] }"))).toEqual([
      "x.yaml:6:18: Redis would refuse 'SETT lock {value}': ERR unknown command 'SETT', with args beginning with: 'lock' '{value}' (did you mean SET?)",
    ]);
  });

  it('a negative expiry and clashing options, in the words Redis answers', () => {
    expect(problems(stepClient('{ redis: [SET, lock, v, PX, -5] }', '{ redis: [SET, k, v, NX, XX] }'))).toEqual([
      "x.yaml:6:18: Redis would refuse 'SET lock v PX -5': ERR invalid expire time in 'set' command",
      "x.yaml:7:18: Redis would refuse 'SET k v NX XX': ERR syntax error",
    ]);
  });

  it('a wrong number of words, saying how many the command takes', () => {
    expect(problems(stepClient('{ redis: [GET, k, x] }'))).toEqual([
      "x.yaml:6:18: Redis would refuse 'GET k x': ERR wrong number of arguments for 'get' command (GET takes exactly 2 words counting its name; this step has 3 words)",
    ]);
  });

  it('passes the commands lessons use, placeholders and scripts included', () => {
    const steps = [
      "{ redis: [SET, lock, '{value}', NX, PX, '{ttl}'] }",
      "{ redis: [INCR, '{key}:fence'] }",
      '{ redis: [EVAL, "return 1", 0] }',
      "{ redis: [PEXPIRE, lock, '{ttl}'] }",
      '{ redis: [DEL, lock] }',
    ];
    expect(problems(stepClient(...steps))).toEqual([]);
  });
});
