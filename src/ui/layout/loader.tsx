import { useEffect, useState, type ReactNode } from 'react';

/** Something fetched on first use (a page or the player, each a chunk of its own). */
export interface Loader<T> {
  /** Starts the fetch unless it is under way or done; a failed fetch is tried again next time. */
  (): Promise<T>;
  /** The value once it has arrived, else null. */
  current(): T | null;
  /** Settles once a fetch under way has ended, either way (at once when none is). */
  settled(): Promise<void>;
}

export function loader<T>(load: () => Promise<T>): Loader<T> {
  let loaded: T | null = null;
  let loading: Promise<T> | null = null;
  const start = () => {
    if (!loading) {
      loading = load().then((value) => (loaded = value));
      loading.catch(() => (loading = null));
    }
    return loading;
  };
  const settled = () =>
    loading
      ? loading.then(
          () => undefined,
          () => undefined,
        )
      : Promise.resolve();
  return Object.assign(start, { current: () => loaded, settled });
}

/**
 * The loader's value, or the reason it could not be fetched. By hand rather than React.lazy:
 * Suspense holds a resolved boundary back for up to 300 ms after its fallback showed, which
 * would be most of the time a learner waits for the sandbox, a player or a dashboard.
 */
export function useLoaded<T>(load: Loader<T>): [value: T | null, failure: string | null] {
  const [value, setValue] = useState<T | null>(() => load.current());
  const [failure, setFailure] = useState<string | null>(null);
  useEffect(() => {
    if (value !== null) return;
    let live = true;
    load().then(
      (arrived) => live && setValue(() => arrived),
      (error: unknown) => live && setFailure(error instanceof Error ? error.message : String(error)),
    );
    return () => {
      live = false;
    };
  }, [load, value]);
  return [value, failure];
}

interface LoadedProps<T> {
  load: Loader<T>;
  /** What it is, for the message when it could not be fetched ("the dashboard"). */
  name: string;
  /** What shows while it loads. */
  loading: ReactNode;
  render: (value: T) => ReactNode;
}

/** A part of the page fetched on first use: `loading` meanwhile, or why it could not be fetched. */
export function Loaded<T>({ load, name, loading, render }: LoadedProps<T>) {
  const [value, failure] = useLoaded(load);
  if (value !== null) return render(value);
  if (failure !== null)
    return (
      <p role="alert">
        {capitalized(name)} could not be loaded: {failure}. Check the connection and reload the page.
      </p>
    );
  return loading;
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
