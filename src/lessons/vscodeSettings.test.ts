import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const settings = JSON.parse(readFileSync('.vscode/settings.json', 'utf8')) as {
  'yaml.schemas': Record<string, string[]>;
};

describe('.vscode: the YAML extension checks lesson files against the generated schemas', () => {
  it('maps schema files that exist onto globs that match real files', () => {
    const mapped = Object.entries(settings['yaml.schemas']);
    expect(mapped.map(([schema]) => schema).sort()).toEqual([
      './lessons/courses.schema.json',
      './lessons/scenario.schema.json',
    ]);
    for (const [schema, globs] of mapped) {
      expect(existsSync(schema), schema).toBe(true);
      for (const glob of globs) {
        const [dir, name] = [glob.slice(0, glob.lastIndexOf('/')), glob.slice(glob.lastIndexOf('/') + 1)];
        const matcher = new RegExp(`^${name.replace(/\./g, '\\.').replace(/\*/g, '[^/]*')}$`);
        expect(readdirSync(dir).filter((f) => matcher.test(f)).length, glob).toBeGreaterThan(0);
      }
    }
  });

  it('recommends the YAML extension that reads yaml.schemas', () => {
    expect(JSON.parse(readFileSync('.vscode/extensions.json', 'utf8')).recommendations).toContain('redhat.vscode-yaml');
  });
});
