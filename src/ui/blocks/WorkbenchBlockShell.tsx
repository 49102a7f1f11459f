import { useRef } from 'react';
import type { WorkbenchSpec } from '../../lessons/blocks/workbench';
import { Loaded, loader } from '../layout/loader';
import { useNearViewport } from '../player/nearViewport';
import './workbenchBlock.css';

// The editor (CodeMirror), the YAML checker and the explorer: a chunk of their own, fetched when
// the block nears sight (see useNearViewport), so the lesson's opening costs a phone nothing for it.
const loadWorkbenchBlock = loader(() => import('./WorkbenchBlock').then((m) => m.WorkbenchBlock));

interface Props {
  spec: WorkbenchSpec;
  storageKey: string;
  lesson: string;
  block: string;
  onWatched?: () => void;
}

/**
 * A lesson's workbench block before it is near sight: its title and the recipe as plain text
 * (readable, and found by find-in-page), in about the room the editor takes. The editor replaces
 * it when the learner scrolls near, or once the page has been left alone for a few seconds.
 */
export function WorkbenchBlockShell({ spec, storageKey, lesson, block, onWatched }: Props) {
  const shell = useRef<HTMLElement>(null);
  const near = useNearViewport(shell);
  const pending = (
    <section
      ref={shell}
      className="block workbench-block"
      aria-label={`Workbench: ${spec.scenario.title}`}
      aria-busy="true"
    >
      <h3 className="workbench-block-title">Workbench: {spec.scenario.title}</h3>
      <pre className="workbench-block-pending">{spec.text}</pre>
      <p className="block-note">{near ? 'Loading the editor…' : 'The editor opens as you scroll to it.'}</p>
    </section>
  );
  if (!near) return pending;
  return (
    <Loaded
      load={loadWorkbenchBlock}
      name="the editor"
      loading={pending}
      render={(WorkbenchBlock) => (
        <WorkbenchBlock
          spec={spec}
          storageKey={storageKey}
          lesson={lesson}
          block={block}
          {...(onWatched ? { onWatched } : {})}
        />
      )}
    />
  );
}
