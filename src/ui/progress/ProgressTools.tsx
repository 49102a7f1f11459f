import { useRef } from 'react';
import { downloadText } from '../blocks/download';
import { useNotices } from './noticeStore';
import { parseProgressFile, progressFileText } from './progressFile';
import { useProgress } from './progressStore';

/** Export progress to a file and import it again (another browser, or a backup). */
export function ProgressTools() {
  const input = useRef<HTMLInputElement>(null);
  const show = useNotices((s) => s.show);

  const exportProgress = () => {
    const { completed, quizzes, notes, checks } = useProgress.getState();
    downloadText(`lockstep-progress-${new Date().toISOString().slice(0, 10)}.json`, progressFileText({ completed, quizzes, notes, checks }), 'application/json');
  };
  const importProgress = async (file: File | undefined) => {
    if (!file) return;
    const data = parseProgressFile(await file.text());
    if (!data) {
      show({ id: 'import', tone: 'warning', text: `"${file.name}" is not a Lockstep progress file, so nothing was changed.` });
    } else {
      useProgress.getState().replaceAll(data);
      show({ id: 'import', tone: 'info', text: `Progress imported from "${file.name}".` });
    }
    if (input.current) input.current.value = '';
  };

  return (
    <div className="progress-tools">
      <button type="button" className="button button-quiet" onClick={exportProgress}>Export progress</button>
      <button type="button" className="button button-quiet" onClick={() => input.current?.click()}>Import progress</button>
      <input ref={input} type="file" accept="application/json,.json" hidden aria-label="Progress file to import" onChange={(e) => void importProgress(e.target.files?.[0])} />
    </div>
  );
}
