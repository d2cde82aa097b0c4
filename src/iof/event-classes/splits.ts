/**
 * The split times of the individual result being read, for the course of its class. Split times are most of the
 * elements of a result list, so this keeps no array per result: until the class has a control sequence the codes are
 * collected once, after that each code is compared with the class's sequence as it comes.
 */
import type { CourseTally } from './course-tally.js';

export class SplitTimes {
  /** Where the split times go: the tally of the result's class block, unless none or they can no longer matter. */
  private tally: CourseTally | undefined;
  /** The class's sequence, once it has one. */
  private reference: readonly string[] | undefined;
  /** The codes read, while the class has no sequence yet. */
  private readonly codes: string[] = [];
  /** Split times on the course, control codes read, and whether those codes match `reference` so far. */
  private splitCount = 0;
  private codeCount = 0;
  private matches = true;

  /** An individual result starts; its split times are for `tally`, if it still wants control sequences. */
  begin(tally: CourseTally | undefined): void {
    this.tally = tally?.wantsControls ? tally : undefined;
    this.reference = this.tally?.firstControls;
    this.codes.length = 0;
    this.splitCount = 0;
    this.codeCount = 0;
    this.matches = true;
  }

  /** Whether the split times of the result being read are wanted at all. */
  get wanted(): boolean {
    return this.tally !== undefined;
  }

  /** A split time on the course starts. */
  split(): void {
    this.splitCount++;
  }

  /** The control code of a split time of an OK individual result. */
  code(code: string): void {
    if (code === '') return;
    const reference = this.reference;
    if (reference === undefined) this.codes.push(code);
    else if (reference[this.codeCount] !== code) this.matches = false;
    this.codeCount++;
  }

  /**
   * The individual result ends. A split time without a control code (2.0.3 allows it) leaves the result's sequence
   * unknown: it neither sets nor contradicts the class's.
   */
  close(): void {
    const tally = this.tally;
    this.tally = undefined;
    if (tally === undefined || this.splitCount === 0 || this.codeCount !== this.splitCount) return;
    const reference = this.reference;
    if (reference === undefined) tally.seeControls(this.codes);
    else if (!this.matches || this.codeCount !== reference.length) tally.controlsDisagree();
  }
}
