import { createContext, type ComponentType } from 'react';
import type { CompareRun } from '../../lessons/types';

/** What "Compare with the lesson's run" shows: two runs side by side, on one playhead and one zoom. */
export type CompareView = ComponentType<{ title?: string; left: CompareRun; right: CompareRun }>;

/**
 * The compare block, handed to the players by the app: it holds players of its own, so a player
 * importing it would import itself. Null where no host provides it (the button is not offered).
 */
export const CompareSlot = createContext<CompareView | null>(null);
