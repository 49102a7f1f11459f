import { readProgress, writeProgress, type ProgressData } from './progressData';

/** An exported progress file: the storage envelope plus a marker saying what it is. */
export function progressFileText(data: ProgressData): string {
  const { state, version } = JSON.parse(writeProgress(data)) as { state: ProgressData; version: number };
  return `${JSON.stringify({ app: 'lockstep', kind: 'progress', version, state }, null, 2)}\n`;
}

/** Reads an exported file back; null when it is not Lockstep progress this version understands. */
export function parseProgressFile(text: string): ProgressData | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  if (!parsed || typeof parsed !== 'object' || (parsed as { app?: unknown }).app !== 'lockstep') return null;
  const { data, problem } = readProgress(JSON.stringify(parsed));
  return problem ? null : data;
}
