/**
 * The words of an event search that the command line needs before anything loads (`events --help` names them): kept
 * apart from events.ts, whose zod schemas would otherwise load with the help text.
 */
export const SORT_PROPERTIES = ['time', 'duration', 'distance', 'participantcount'] as const;
export type SortProperty = (typeof SORT_PROPERTIES)[number];

/** Largest page the simulator serves; the contract names none, so clients must page with what they are given. */
export const MAX_PAGE_SIZE = 1000;
