import type { Locator, Page } from '@playwright/test';

/** A player on the page, by its scenario's title: the whole title, or a pattern within it. */
export function player(page: Page, title: string | RegExp) {
  const name = typeof title === 'string' ? `Simulation: ${title}` : new RegExp(`Simulation: ${title.source}`);
  return page.getByRole('region', { name });
}

/** Every player on the page (or within a block), in page order, loaded or still a placeholder. */
export function players(within: Page | Locator) {
  return within.getByRole('region', { name: /^Simulation: / });
}

/** The player's virtual clock, as text ("13.008 s"). */
export function clock(sim: Locator) {
  return sim.getByRole('timer', { name: 'Virtual time' });
}

/** The summary of the player's event list, "Every event so far (n of m)": it counts the steps. */
export function eventCount(sim: Locator) {
  return sim.getByText(/^Every event so far \(/);
}

/**
 * A console transcript's line for a command, as the learner reads it: "1 s Redis> GET lock" (a
 * command's reply follows on its own line; the hint "Type a command, e.g. GET lock" is no command).
 */
export function commandLine(transcript: Locator, command: string) {
  return transcript.getByText(new RegExp(`> ${command.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`));
}

/** The warnings in a console transcript ("Warning: DEL removes lock, the lock Barista A holds"). */
export function consoleWarnings(transcript: Locator) {
  return transcript.getByText(/^Warning: /);
}

/** The player's panel of verdicts and writes, "What happened". */
export function whatHappened(sim: Locator) {
  return sim.getByRole('group', { name: 'What happened', exact: true });
}

/** The lines of the resource's log that are listed at once (past six writes, the latest and the rejected). */
export function writes(sim: Locator) {
  return sim.getByRole('list', { name: 'Writes', exact: true }).getByRole('listitem');
}
