/**
 * Okabe–Ito colours: distinguishable with the common colour-vision deficiencies. Every mark that
 * uses colour also has a shape, outline or pattern, so colour is never the only cue.
 */
export const okabeIto = {
  black: '#000000',
  orange: '#E69F00',
  skyBlue: '#56B4E9',
  bluishGreen: '#009E73',
  yellow: '#F0E442',
  blue: '#0072B2',
  vermillion: '#D55E00',
  reddishPurple: '#CC79A7',
} as const;

/** Ink for text and outlines: near-black reads softer than pure black but keeps 4.5:1 contrast. */
export const ink = '#1d1d1f';
export const inkMuted = '#545459';
export const paper = '#ffffff';
export const laneStripe = '#f4f5f7';

/** Colours for lock owners, in lane order; the lesson is about who holds what, so owners get hues. */
const ownerHues = [
  okabeIto.blue,
  okabeIto.orange,
  okabeIto.bluishGreen,
  okabeIto.reddishPurple,
  okabeIto.skyBlue,
  okabeIto.yellow,
];

/** A stable colour per owner, from the owner's position among client lanes. */
export function ownerColor(ownerIndex: number): string {
  return ownerHues[((ownerIndex % ownerHues.length) + ownerHues.length) % ownerHues.length]!;
}
