import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseLesson } from '../lessons/parse';
import { formatDiagnostic, type Diagnostic } from '../scenario/diagnostic';
import { parseScenario } from '../scenario/parse';
import type { Scenario } from '../scenario/schema';

export type Loaded = { ok: true; scenario: Scenario } | { ok: false; problems: string[] };

/**
 * Finds a scenario by the name people use on the command line: `lessons/05-x.md#scenario-id`
 * for a block inside a lesson (the id may be left out when the lesson has one scenario), or a
 * standalone `lessons/scenarios/x.yaml`.
 */
export function loadScenario(spec: string): Loaded {
  const [file, id] = spec.split('#') as [string, string | undefined];
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return { ok: false, problems: [`${file}: cannot read this file (check the path)`] };
  }
  if (!file.endsWith('.md')) {
    const parsed = parseScenario(text, { file, line: 1 });
    return parsed.ok ? parsed : failed(parsed.diagnostics);
  }
  const lessonsDir = dirname(file);
  const { lesson, diagnostics } = parseLesson(text, file, {
    readRef: (rel) => {
      try {
        return readFileSync(join(lessonsDir, rel), 'utf8');
      } catch {
        return undefined;
      }
    },
  });
  const scenarios = (lesson?.blocks ?? []).flatMap((b) => (b.kind === 'scenario' ? [b.scenario] : []));
  const match = id === undefined && scenarios.length === 1 ? scenarios[0] : scenarios.find((s) => s.id === id);
  if (match) return { ok: true, scenario: match };
  if (diagnostics.length) return failed(diagnostics);
  const known = scenarios.map((s) => s.id).join(', ') || 'none';
  return {
    ok: false,
    problems: [`${file}: no scenario ${id === undefined ? '(name one with #id)' : `'${id}'`} in this lesson (scenarios here: ${known})`],
  };
}

function failed(diagnostics: Diagnostic[]): Loaded {
  return { ok: false, problems: diagnostics.map(formatDiagnostic) };
}
