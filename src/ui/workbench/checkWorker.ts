import '../zodWithoutEval';
import { checkScenarioText } from './checkScenarioText';

/** What the page sends: one text to check, numbered so answers can be matched to questions. */
export interface CheckRequest {
  id: number;
  text: string;
}

// A dedicated worker: checks one scenario text per message, off the page's thread.
const scope = self as unknown as { onmessage: ((e: MessageEvent<CheckRequest>) => void) | null; postMessage(message: unknown): void };
scope.onmessage = (e) => scope.postMessage({ id: e.data.id, result: checkScenarioText(e.data.text) });
