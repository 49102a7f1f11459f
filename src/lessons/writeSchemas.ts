import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { jsonSchemaFiles } from './jsonSchema';
import { referencePage } from './referencePage';

/**
 * Writes lessons/*.schema.json and lessons/REFERENCE.md (the same fields as a page), touching only files whose content changed (so a dev server
 * watching lessons/ does not loop). Returns the paths it wrote.
 */
export function writeSchemaFiles(lessonsDir: string): string[] {
  const written: string[] = [];
  for (const [name, text] of Object.entries({ ...jsonSchemaFiles(), 'REFERENCE.md': referencePage() })) {
    const path = join(lessonsDir, name);
    if (existsSync(path) && readFileSync(path, 'utf8') === text) continue;
    writeFileSync(path, text);
    written.push(path);
  }
  return written;
}

// `npm run schemas` runs this file directly.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const written = writeSchemaFiles('lessons');
  console.log(
    written.length ? `wrote ${written.join(', ')}` : 'lessons/*.schema.json and REFERENCE.md already up to date',
  );
}
