import { dirname, join } from 'node:path';
import type { Action } from '../actors/action';
import { readBounded } from '../lessons/boundedRead';
import { parseLesson } from '../lessons/parse';
import { MAX_LESSON_CHARS, MAX_YAML_CHARS } from '../scenario/text/inputBounds';
import { actionsSchema, checkActions } from '../scenario/schema/actionSchema';
import { describePath, formatDiagnostic, type Diagnostic } from '../scenario/diagnostic';
import type { LuaCompiler } from '../scenario/text/luaSyntax';
import { parseScenario } from '../scenario/text/parse';
import type { Scenario } from '../scenario/schema/schema';
import { validateYaml } from '../scenario/text/schemaIssues';
import { parseYamlSource } from '../scenario/text/yamlSource';

export type Loaded = { ok: true; scenario: Scenario } | { ok: false; problems: string[] };

/**
 * Finds a scenario by the name people use on the command line: `lessons/05-x.md#scenario-id`
 * for a block inside a lesson (the id may be left out when the lesson has one scenario), or a
 * standalone `lessons/scenarios/x.yaml`. With `compileLua`, a script that does not compile is a
 * problem at its line, as lessons:check reports it.
 */
export function loadScenario(spec: string, compileLua?: LuaCompiler): Loaded {
  const lua = compileLua ? { compileLua } : {};
  const [file, id] = spec.split('#') as [string, string | undefined];
  let text: string;
  try {
    text = readBounded(file, file.endsWith('.md') ? MAX_LESSON_CHARS : MAX_YAML_CHARS);
  } catch {
    return { ok: false, problems: [`${file}: cannot read this file (check the path)`] };
  }
  if (!file.endsWith('.md')) {
    const parsed = parseScenario(text, { file, line: 1 }, lua);
    return parsed.ok ? parsed : failed(parsed.diagnostics);
  }
  const lessonsDir = dirname(file);
  const { lesson, diagnostics } = parseLesson(text, file, {
    ...lua,
    readRef: (rel) => {
      try {
        return readBounded(join(lessonsDir, rel), MAX_YAML_CHARS);
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
    problems: [
      `${file}: no scenario ${id === undefined ? '(name one with #id)' : `'${id}'`} in this lesson (scenarios here: ${known})`,
    ],
  };
}

function failed(diagnostics: Diagnostic[]): { ok: false; problems: string[] } {
  return { ok: false, problems: diagnostics.map(formatDiagnostic) };
}

/**
 * Reads `--actions file.json`: a JSON list of learner actions, checked like a scenario file (the
 * shape with file:line:col, then that each action names actors of `scenario`).
 */
export function loadActions(
  file: string,
  scenario: Scenario,
): { ok: true; actions: Action[] } | { ok: false; problems: string[] } {
  let text: string;
  try {
    text = readBounded(file, MAX_YAML_CHARS);
  } catch {
    return { ok: false, problems: [`${file}: cannot read this file (check the path)`] };
  }
  const origin = { file, line: 1 };
  const source = parseYamlSource(text, origin);
  const checked = validateYaml(source, actionsSchema, origin);
  if (!checked.ok)
    return failed(
      checked.diagnostics.map((d) =>
        d.path?.length === 0 ? { ...d, message: d.message.replace('the block', 'the file'), hint: ACTIONS_EXAMPLE } : d,
      ),
    );
  const diagnostics: Diagnostic[] = [];
  checkActions(scenario, checked.value, (path, message, hint) =>
    diagnostics.push({
      file,
      ...source.locate(path),
      path,
      message: `${describePath(path)}: ${message}`,
      ...(hint ? { hint } : {}),
    }),
  );
  return diagnostics.length
    ? failed(diagnostics)
    : { ok: true, actions: [...checked.value].sort((a, b) => a.at - b.at) };
}

const ACTIONS_EXAMPLE =
  'an actions file is a JSON list like [{"at": 2000, "do": "pause", "target": "A", "forMs": 15000}]';
