/**
 * The classes a document names, collected from wherever it names them. A class met in several places (a class list,
 * the entries, the start or result blocks, a course assignment) is one class, matched by id, else name, else short
 * name; what each place says of it is added to one record, which becomes an `IofClass` at the end.
 */
import { InputError } from '../../errors.js';
import type { IofClass } from '../model.js';
import type { CourseTally } from './course-tally.js';

/** Most distinct classes kept: real events have hundreds; a document naming more is refused rather than hoarded. */
export const MAX_CLASSES = 100_000;

/** What a class element (or a class block's direct 2.0.3 children) says, until it is closed. */
export interface ClassDraft {
  id?: string;
  name?: string;
  shortName?: string;
  legs?: number;
}

/** A class as collected: the public shape plus sets that become lists at the end. */
export interface ClassRecord {
  id: string | undefined;
  name: string;
  shortName: string | undefined;
  entries: number;
  legs: number;
  courseIds: Set<string>;
  courseNames: Set<string>;
  /** Made at the first course element or split times of the class. */
  course: CourseTally | undefined;
}

/** A course named for a class (or a class block): its id and name join the lists. */
export function addCourse(
  to: Pick<ClassRecord, 'courseIds' | 'courseNames'>,
  id: string | undefined,
  name: string | undefined,
): void {
  if (id !== undefined) to.courseIds.add(id);
  if (name !== undefined) to.courseNames.add(name);
}

export class ClassRegistry {
  private readonly classes: ClassRecord[] = [];
  private readonly byId = new Map<string, ClassRecord>();
  private readonly byName = new Map<string, ClassRecord>();
  private readonly byShortName = new Map<string, ClassRecord>();

  constructor(private readonly source: string) {}

  /**
   * The class a draft names, created on first sight. Found by id, else by name, else by short name; a class found by
   * name but carrying another id is another class.
   */
  resolve(draft: ClassDraft): ClassRecord | undefined {
    const { id, shortName } = draft;
    // 2.0.3 names classes by short name: it is their name when no Name is given.
    const name = draft.name ?? shortName;
    if (id === undefined && name === undefined && shortName === undefined) return undefined;
    let cls = id !== undefined ? this.byId.get(id) : undefined;
    if (cls === undefined && name !== undefined) {
      const byName = this.byName.get(name);
      if (byName !== undefined && (byName.id === undefined || id === undefined || byName.id === id)) cls = byName;
    }
    if (cls === undefined && shortName !== undefined) {
      const byShort = this.byShortName.get(shortName);
      if (byShort !== undefined && (byShort.id === undefined || id === undefined || byShort.id === id)) cls = byShort;
    }
    if (cls === undefined) {
      if (this.classes.length >= MAX_CLASSES) {
        throw new InputError(this.source, 'too_large', `the document names more than ${MAX_CLASSES} classes.`);
      }
      cls = {
        id,
        name: name ?? '',
        shortName,
        entries: 0,
        legs: 0,
        courseIds: new Set(),
        courseNames: new Set(),
        course: undefined,
      };
      this.classes.push(cls);
    } else {
      cls.id ??= id;
      if (cls.name === '' && name !== undefined) cls.name = name;
      cls.shortName ??= shortName;
    }
    if (cls.id !== undefined && !this.byId.has(cls.id)) this.byId.set(cls.id, cls);
    if (cls.name !== '' && !this.byName.has(cls.name)) this.byName.set(cls.name, cls);
    if (cls.shortName !== undefined && !this.byShortName.has(cls.shortName)) this.byShortName.set(cls.shortName, cls);
    if (draft.legs !== undefined) cls.legs = Math.max(cls.legs, draft.legs);
    return cls;
  }

  /** The classes in the order first met; without `withCourse` (course data, read in full elsewhere) no `course`. */
  toIofClasses(withCourse: boolean): IofClass[] {
    return this.classes.map((c): IofClass => {
      const course = withCourse ? c.course?.result() : undefined;
      return {
        ...(c.id === undefined ? {} : { id: c.id }),
        name: c.name,
        ...(c.shortName === undefined ? {} : { shortName: c.shortName }),
        ...(c.courseIds.size === 0 ? {} : { courseIds: [...c.courseIds] }),
        ...(c.courseNames.size === 0 ? {} : { courseNames: [...c.courseNames] }),
        ...(course === undefined ? {} : { course }),
        entries: c.entries,
        ...(c.legs === 0 ? {} : { legs: c.legs }),
      };
    });
  }
}
