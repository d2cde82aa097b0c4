/**
 * The course data part of the event-and-classes reader: which classes run which course (3.0 `ClassCourseAssignment`,
 * 2.0.3 `Course/ClassId` and `ClassShortName`) and how many courses and controls there are. The courses themselves are
 * read in full by `parseCourseData`; here only what `IofEventClasses` reports. It handles the contexts of the third
 * run in `contexts.ts`.
 */
import { addCourse, type ClassDraft, type ClassRegistry } from './classes.js';
import {
  ASSIGNMENT,
  ASSIGNMENT_CLASS_ID,
  ASSIGNMENT_CLASS_NAME,
  ASSIGNMENT_COURSE,
  ASSIGNMENT_LEG,
  CONTROL2_CODE,
  CONTROL3,
  COURSE2,
  COURSE2_CLASS_ID,
  COURSE2_CLASS_SHORT,
  COURSE2_ID,
  COURSE2_NAME,
  COURSE3,
  VARIATION2,
} from './contexts.js';

/** A 3.0 `ClassCourseAssignment` being read: the class it names, its course and the highest leg it allows. */
interface Assignment {
  draft: ClassDraft;
  courseName?: string;
  maxLeg: number;
}

/** A 2.0.3 `Course` being read: its name and id, the classes it names, its variations. */
interface Course2 {
  name?: string;
  id?: string;
  classIds: string[];
  classShortNames: string[];
  variations: number;
}

export class CourseDataPart {
  private assignment: Assignment | undefined;
  private course2: Course2 = { classIds: [], classShortNames: [], variations: 0 };
  /** 3.0 controls, counted; 2.0.3 control codes, collected (a code appears again in every course using it). */
  private controls3 = 0;
  private readonly controlCodes = new Set<string>();
  private courses = 0;

  constructor(private readonly classes: ClassRegistry) {}

  /** How many courses and controls the course data holds. */
  counts(): { courses: number; controls: number } {
    return { courses: this.courses, controls: this.controls3 + this.controlCodes.size };
  }

  enter(context: number): number {
    switch (context) {
      case ASSIGNMENT:
        this.assignment = { draft: {}, maxLeg: 0 };
        return context;
      case CONTROL3:
        this.controls3++;
        return context;
      case COURSE3:
        this.courses++;
        return context;
      case COURSE2:
        this.course2 = { classIds: [], classShortNames: [], variations: 0 };
        return context;
      case VARIATION2:
        this.course2.variations++;
        return context;
      default:
        return context;
    }
  }

  /** Ends an element; `value` is its text, trimmed, for the contexts whose text is read. */
  leave(context: number, value: string): void {
    switch (context) {
      case ASSIGNMENT_CLASS_ID:
        if (this.assignment && value !== '') this.assignment.draft.id ??= value;
        return;
      case ASSIGNMENT_CLASS_NAME:
        if (this.assignment && value !== '') this.assignment.draft.name ??= value;
        return;
      case ASSIGNMENT_COURSE:
        if (this.assignment && value !== '') this.assignment.courseName = value;
        return;
      case ASSIGNMENT_LEG:
        if (this.assignment && /^\d+$/.test(value))
          this.assignment.maxLeg = Math.max(this.assignment.maxLeg, Number(value));
        return;
      case ASSIGNMENT:
        this.closeAssignment();
        return;
      case CONTROL2_CODE:
        if (value !== '') this.controlCodes.add(value);
        return;
      case COURSE2_NAME:
        if (value !== '') this.course2.name = value;
        return;
      case COURSE2_ID:
        if (value !== '') this.course2.id = value;
        return;
      case COURSE2_CLASS_ID:
        if (value !== '') this.course2.classIds.push(value);
        return;
      case COURSE2_CLASS_SHORT:
        if (value !== '') this.course2.classShortNames.push(value);
        return;
      case COURSE2:
        this.closeCourse2();
        return;
      default:
        return;
    }
  }

  private closeAssignment(): void {
    const assignment = this.assignment;
    this.assignment = undefined;
    if (assignment === undefined) return;
    const cls = this.classes.resolve(assignment.draft);
    if (cls === undefined) return;
    if (assignment.courseName !== undefined) cls.courseNames.add(assignment.courseName);
    cls.legs = Math.max(cls.legs, assignment.maxLeg);
  }

  private closeCourse2(): void {
    const course = this.course2;
    this.courses += Math.max(1, course.variations);
    const drafts: ClassDraft[] = [
      ...course.classIds.map((id) => ({ id })),
      ...course.classShortNames.map((shortName) => ({ shortName })),
    ];
    for (const draft of drafts) {
      const cls = this.classes.resolve(draft);
      if (cls) addCourse(cls, course.id, course.name);
    }
  }
}
