import { useEffect, useRef, useState } from 'react';
import { lessonTitle } from '../../lessons/lessonAccess';
import { downloadText } from '../blocks/download';
import { useCatalog } from '../catalog/catalogStore';
import { loadAllLessons } from '../catalog/lessonBodies';
import { useNotices } from './noticeStore';
import { knownLessons } from './progressCheck';
import type { ProgressData } from './progressData';
import { readChosenFile } from '../files/readChosenFile';
import { MAX_PROGRESS_FILE_CHARS, parseProgressFile, progressFileText, replacementSummary } from './progressFile';
import { useProgress } from './progressStore';
import './progress.css';

function currentProgress(): ProgressData {
  const { completed, quizzes, notes, checks } = useProgress.getState();
  return { completed, quizzes, notes, checks };
}

const today = () => new Date().toISOString().slice(0, 10);

/**
 * Export progress to a file and import it again (another browser, or a backup). An import is
 * checked against the lessons, asks before it replaces anything (saying what changes), and keeps
 * the progress it replaced: one click undoes it, or downloads it as a file.
 */
export function ProgressTools() {
  const input = useRef<HTMLInputElement>(null);
  const confirmRef = useRef<HTMLDivElement>(null);
  const show = useNotices((s) => s.show);
  const lessons = useCatalog((s) => s.lessons);
  const [pending, setPending] = useState<{ name: string; data: ProgressData; summary: string } | null>(null);
  const [backup, setBackup] = useState<{ name: string; previous: ProgressData } | null>(null);

  useEffect(() => {
    if (pending) confirmRef.current?.focus();
  }, [pending]);

  const exportProgress = () =>
    downloadText(`lockstep-progress-${today()}.json`, progressFileText(currentProgress()), 'application/json');

  const importProgress = async (file: File | undefined) => {
    if (input.current) input.current.value = '';
    if (!file) return;
    // The check needs every lesson's blocks; their chunks are cached once the site has been open online.
    const bodies = await loadAllLessons().catch(() => null);
    if (!bodies) {
      show({
        id: 'import',
        tone: 'warning',
        text: `"${file.name}" was not imported, and nothing was changed: the lessons it is checked against could not be loaded. Try again when you are online.`,
      });
      return;
    }
    const renames = lessons.map((l) => ({ slug: l.frontmatter.slug, formerSlugs: l.frontmatter.formerSlugs }));
    const read = await readChosenFile(file, MAX_PROGRESS_FILE_CHARS, 'a progress file');
    const result = read.ok
      ? parseProgressFile(read.text, knownLessons(bodies), renames)
      : { ok: false as const, message: read.message };
    if (!result.ok) {
      show({
        id: 'import',
        tone: 'warning',
        text: `"${file.name}" was not imported, and nothing was changed: ${result.message}.`,
      });
      return;
    }
    const titleOf = (slug: string) => lessonTitle(lessons, slug);
    setPending({
      name: file.name,
      data: result.data,
      summary: replacementSummary(currentProgress(), result.data, titleOf),
    });
  };

  const replace = () => {
    if (!pending) return;
    setBackup({ name: pending.name, previous: currentProgress() });
    useProgress.getState().replaceAll(pending.data);
    show({
      id: 'import',
      tone: 'info',
      text: `Progress imported from "${pending.name}". Your previous progress is kept until you close this page: undo or download it below.`,
    });
    setPending(null);
  };

  const undo = () => {
    if (!backup) return;
    useProgress.getState().replaceAll(backup.previous);
    show({
      id: 'import',
      tone: 'info',
      text: `The import of "${backup.name}" was undone: your previous progress is back.`,
    });
    setBackup(null);
  };

  return (
    <div className="progress-tools">
      <button type="button" className="button button-quiet" onClick={exportProgress}>
        Export progress
      </button>
      <button type="button" className="button button-quiet" onClick={() => input.current?.click()}>
        Import progress
      </button>
      <input
        ref={input}
        type="file"
        accept="application/json,.json"
        hidden
        aria-label="Progress file to import"
        onChange={(e) => void importProgress(e.target.files?.[0])}
      />
      {pending && (
        <div
          ref={confirmRef}
          role="alertdialog"
          aria-labelledby="import-confirm-title"
          aria-describedby="import-confirm-summary"
          tabIndex={-1}
          className="progress-confirm"
        >
          <p id="import-confirm-title">
            <strong>Replace your progress with “{pending.name}”?</strong>
          </p>
          <p id="import-confirm-summary">{pending.summary} You can undo it afterwards.</p>
          <button type="button" className="button button-primary" onClick={replace}>
            Replace my progress
          </button>{' '}
          <button type="button" className="button button-secondary" onClick={() => setPending(null)}>
            Cancel
          </button>
        </div>
      )}
      {backup && !pending && (
        <div className="progress-confirm" role="group" aria-label="Progress before the import">
          <button type="button" className="button button-quiet" onClick={undo}>
            Undo the import
          </button>
          <button
            type="button"
            className="button button-quiet"
            onClick={() =>
              downloadText(
                `lockstep-progress-before-import-${today()}.json`,
                progressFileText(backup.previous),
                'application/json',
              )
            }
          >
            Download the progress you had
          </button>
        </div>
      )}
    </div>
  );
}
