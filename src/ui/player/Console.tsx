import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { useStore } from 'zustand';
import { parseCommandLine } from '../../redis/cliFormat';
import { changesNothing } from '../../redis/commandTable';
import { formatMs } from '../../sim/time';
import { useActors } from './ActorControls';
import { clipReply } from './bigOutput';
import { consoleTranscript, withReads, type ConsoleEntry } from './consoleModel';
import type { ConsoleRead } from './consoleRead';
import type { PlayerStore } from './playerStore';
import { countUpTo, indicesOfKind } from './traceIndex';

const NO_ENTRIES: ConsoleEntry[] = [];

/**
 * A redis-cli-like console on any Redis node. A command that can change the node is a learner
 * action: it runs on the node at the playhead's time inside the simulation, so it shows on the
 * timeline, changes what happens next, and travels in the share link. A read (GET, TTL, EXISTS:
 * see `changesNothing`) changes nothing, so it is not an action: it is answered at its moment
 * of the run shown, and answered again whenever that run changes, so its reply is always this
 * run's.
 */
export function Console({ store }: { store: PlayerStore }) {
  const nodes = useActors(store).filter((a) => a.role === 'redis');
  const events = useStore(store, (s) => s.events);
  // Commands are action.apply events: re-read the transcript only when one passes the cursor.
  const applied = useStore(store, (s) => countUpTo(indicesOfKind(s.events, 'action.apply'), s.cursor));
  const [node, setNode] = useState(nodes[0]?.id ?? '');
  const [line, setLine] = useState('');
  const [history, setHistory] = useState<string[]>([]);
  const [back, setBack] = useState(-1);
  const [error, setError] = useState<string | null>(null);
  // The transcript's length when the learner last sent a command: its entry, once the run has it, is announced.
  // The transcript's entries (by time, node and command) when a command was sent: the entry that
  // is new is that command's.
  const [sentFrom, setSentFrom] = useState<readonly string[] | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const id = useId();
  const outputRef = useRef<HTMLOListElement>(null);
  // Before the first action there is no command to show (and a fifty-client run is 10 ms to scan).
  const written = useMemo(
    () =>
      applied === 0 ? NO_ENTRIES : consoleTranscript(events, indicesOfKind(events, 'action.apply')[applied - 1]! + 1),
    [events, applied],
  );
  const config = useStore(store, (s) => s.config);
  const simulator = useStore(store, (s) => s.simulator);
  const [reads, setReads] = useState<ConsoleRead[]>([]);
  const [answers, setAnswers] = useState<{
    config: unknown;
    reads: ConsoleRead[];
    replies: (string[] | null)[];
  } | null>(null);
  // Reads show once the playhead has reached them, as written commands do ('1' for each shown).
  const readsShown = useStore(store, (s) => reads.map((r) => (r.atMs <= s.playheadMs ? '1' : '0')).join(''));
  useEffect(() => {
    if (reads.length === 0) return;
    let live = true;
    void simulator
      .read(config, reads)
      .then((outcome) => live && outcome.ok && setAnswers({ config, reads, replies: outcome.value }));
    return () => {
      live = false;
    };
  }, [simulator, config, reads]);
  const transcript = useMemo(() => {
    const replies = answers && answers.config === config && answers.reads === reads ? answers.replies : null;
    return withReads(written, reads, replies, (_, i) => readsShown[i] === '1');
  }, [written, reads, readsShown, answers, config]);

  // The newest entry in view. Reading the height lays the page out: not for an empty transcript,
  // as when the player mounts (6 ms under lesson 13's herd).
  useEffect(() => {
    const out = outputRef.current;
    if (out && transcript.length > 0) out.scrollTop = out.scrollHeight;
  }, [transcript.length]);

  // A warning is announced once, for the command just sent, not each time stepping crosses it.
  useEffect(() => {
    if (sentFrom === null) return;
    // Not simply the last entry: a read sent earlier at the same playhead time sorts after it.
    const before = [...sentFrom];
    const sent = transcript.find((t) => {
      const at = before.indexOf(entryName(t));
      if (at < 0) return true;
      before.splice(at, 1);
      return false;
    });
    if (!sent) return;
    const warning = sent.warning;
    // The same warning twice in a row must still change the region's text to be read again.
    setAnnouncement((before) =>
      warning ? `Warning: ${warning}${before.startsWith('Warning') && !before.endsWith('\u00a0') ? '\u00a0' : ''}` : '',
    );
    setSentFrom(null);
  }, [transcript, sentFrom]);

  if (nodes.length === 0) return null;
  const label = (nodeId: string) => nodes.find((n) => n.id === nodeId)?.label ?? nodeId;

  const submit = () => {
    const argv = parseCommandLine(line);
    if (argv === null) {
      setError('Invalid argument(s): check the quotes.');
      return;
    }
    setError(null);
    if (argv.length === 0) return;
    setHistory((h) => [...h, line]);
    setBack(-1);
    setLine('');
    setSentFrom(transcript.map(entryName));
    if (changesNothing(argv)) setReads((r) => [...r, { atMs: store.getState().playheadMs, node, argv }]);
    else store.getState().act({ do: 'command', target: node, argv });
  };

  const recall = (step: 1 | -1) => {
    if (history.length === 0) return;
    const next = back === -1 ? (step === 1 ? history.length - 1 : -1) : back - step;
    if (next < 0 || next >= history.length) {
      setBack(-1);
      setLine('');
      return;
    }
    setBack(next);
    setLine(history[next]!);
  };

  return (
    <div className="player-panel redis-console">
      <h4 id={`${id}-title`}>Console</h4>
      <ol ref={outputRef} className="console-output" aria-labelledby={`${id}-title`} tabIndex={0}>
        {transcript.length === 0 && (
          <li className="muted">Type a command, e.g. GET lock or TTL lock. It runs at the playhead's time.</li>
        )}
        {transcript.map((t) => (
          <li key={t.key}>
            <div className="console-command">
              <span className="muted">
                {formatMs(t.at)} {label(t.node)}&gt;
              </span>{' '}
              {t.command}
            </div>
            {t.warning && (
              <div className="console-warning">
                <strong>Warning:</strong> {t.warning}
              </div>
            )}
            {t.reply === undefined ? (
              <div className="console-reply muted">…</div>
            ) : t.reply === null ? (
              <div className="console-reply console-noreply">(no answer: {label(t.node)} was not running)</div>
            ) : (
              <Reply lines={t.reply} />
            )}
          </li>
        ))}
      </ol>
      <form
        className="console-input"
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <label className="player-field console-node">
          Node
          <select value={node} onChange={(e) => setNode(e.target.value)}>
            {nodes.map((n) => (
              <option key={n.id} value={n.id}>
                {n.label}
              </option>
            ))}
          </select>
        </label>
        <label className="console-line">
          <span className="visually-hidden">Command for {label(node)}</span>
          <input
            type="text"
            value={line}
            spellCheck={false}
            autoCapitalize="off"
            autoComplete="off"
            placeholder={`${node}> GET lock`}
            aria-describedby={error ? `${id}-error` : undefined}
            onChange={(e) => setLine(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'ArrowUp') {
                e.preventDefault();
                recall(1);
              } else if (e.key === 'ArrowDown') {
                e.preventDefault();
                recall(-1);
              }
            }}
          />
        </label>
        <button type="submit">Run</button>
      </form>
      <p className="visually-hidden" role="status" aria-live="polite" aria-atomic="true">
        {announcement}
      </p>
      {error && (
        <p id={`${id}-error`} role="alert" className="console-error">
          {error}
        </p>
      )}
    </div>
  );
}

/** A transcript entry by what it is, not its key (a run that changes renumbers its events). */
function entryName(t: { at: number; node: string; command: string }): string {
  return `${t.at} ${t.node} ${t.command}`;
}

/** A reply's lines, at most a readable slice of a huge one, with a note of what was left out. */
function Reply({ lines }: { lines: readonly string[] }) {
  const { lines: shown, note } = useMemo(() => clipReply(lines), [lines]);
  return (
    <>
      {shown.map((r, i) => (
        <div key={i} className="console-reply">
          {r}
        </div>
      ))}
      {note && <div className="console-reply muted">{note}</div>}
    </>
  );
}
