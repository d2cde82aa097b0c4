// Types of link-scenarios.mjs, for the tests that run the scenarios through the modules of src/.
export interface Scenario {
  id: string;
  why: string;
  export:
    | { file: string }
    | { event: Record<string, unknown>; classes: Array<string | { name: string; shortName?: string }> };
  service: unknown[];
  expect: { event: number | null; status?: 'ambiguous'; classes?: Record<string, string> };
}
export interface ScenarioRow {
  id: string;
  event: 'right' | 'wrong' | 'refused' | 'missed';
  ambiguous: boolean;
  chosen: number | undefined;
  reason: string;
  classes: { right: number; wrong: number; missed: number; wrongNames: string[]; missedNames: string[] };
}
export interface ScenarioRun {
  rows: ScenarioRow[];
  totals: {
    right: number;
    wrong: number;
    refused: number;
    missed: number;
    /** Refused as `ambiguous` (the event entered twice, two candidates that compete). */
    ambiguous: number;
    classes: { right: number; wrong: number; missed: number };
  };
}
export interface Matching {
  readFile(path: string): Promise<{ event: unknown; classes: unknown[] }>;
  scoreEvents: (...args: never[]) => unknown;
  chooseEvent: (...args: never[]) => unknown;
  matchClasses: (...args: never[]) => unknown;
  isRelayEvent: (...args: never[]) => boolean;
}
export function readScenarios(): Scenario[];
export function runScenarios(scenarios: readonly Scenario[], m: Matching): Promise<ScenarioRun>;
export function confusionTable(run: ScenarioRun): string;
