import { useId, useState, type FormEvent } from 'react';
import './clientTiming.css';
import type { ClientEdit } from '../../scenario/running/storyEdits';

/** A client's timings as its lane menu shows them; `workMs` is null for work that never ends. */
export interface ClientTimings {
  startAtMs: number;
  ttlMs: number;
  workMs: number | null;
}

type Field = keyof ClientTimings;

const FIELDS: { field: Field; label: string; min: number }[] = [
  { field: 'startAtMs', label: 'Starts at (s)', min: 0 },
  { field: 'ttlMs', label: 'TTL (s)', min: 0.1 },
  { field: 'workMs', label: 'Work (s)', min: 0 },
];

/** Seconds as a form shows them: no float noise ("0.1", not "0.10000000000000001"). */
const seconds = (ms: number) => String(ms / 1000);

/** What is wrong with one typed value, in words that say how to fix it; null when it is fine. */
function problem(text: string, min: number): string | null {
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value)) return 'type a number of seconds, such as 0.5';
  if (value < min) return min > 0 ? `must be at least ${min} s` : 'cannot be negative';
  if (value > 86_400) return 'must be at most a day (86400 s)';
  return null;
}

/**
 * A client's start time, TTL and work duration, changed from its lane's menu: what the workbench
 * would let the learner rewrite in the scenario, as an edit of this run that undo takes back and
 * a share link carries. Applies only the fields that changed, rounded to whole milliseconds.
 */
export function ClientTiming({
  label,
  timings,
  onApply,
}: {
  label: string;
  timings: ClientTimings;
  onApply: (change: Omit<ClientEdit, 'edit' | 'client'>) => void;
}) {
  const id = useId();
  const [typed, setTyped] = useState<Record<Field, string>>({
    startAtMs: seconds(timings.startAtMs),
    ttlMs: seconds(timings.ttlMs),
    workMs: timings.workMs === null ? '' : seconds(timings.workMs),
  });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const shown = FIELDS.filter((f) => f.field !== 'workMs' || timings.workMs !== null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found: Partial<Record<Field, string>> = {};
    const change: Omit<ClientEdit, 'edit' | 'client'> = {};
    for (const { field, min } of shown) {
      const wrong = problem(typed[field], min);
      if (wrong) found[field] = wrong;
      const ms = Math.round(Number(typed[field]) * 1000);
      if (!wrong && ms !== timings[field]) change[field] = ms;
    }
    setErrors(found);
    if (Object.keys(found).length === 0 && Object.keys(change).length > 0) onApply(change);
  };

  return (
    <form className="client-timing" aria-label={`Timing of ${label}`} onSubmit={submit} noValidate>
      {shown.map(({ field, label: fieldLabel, min }) => (
        <div key={field} className="client-timing-field">
          <label htmlFor={`${id}-${field}`}>{fieldLabel}</label>
          <input
            id={`${id}-${field}`}
            type="number"
            inputMode="decimal"
            min={min}
            step={0.1}
            value={typed[field]}
            aria-invalid={errors[field] ? true : undefined}
            aria-describedby={errors[field] ? `${id}-${field}-error` : undefined}
            onChange={(e) => setTyped({ ...typed, [field]: e.target.value })}
          />
          {errors[field] && (
            <span id={`${id}-${field}-error`} className="client-timing-error" role="alert">
              {fieldLabel.replace(' (s)', '')} {errors[field]}
            </span>
          )}
        </div>
      ))}
      <button type="submit">Change timing</button>
    </form>
  );
}
