/**
 * The streaming handler of the event-and-classes reader: it follows the element stack through the context table
 * (`contexts.ts`), judges the root and the IOF version, collects the text of the elements that are read, and hands
 * each element to the part that reads it (`event.ts`, `lists.ts`, `course-data.ts`). At the end it puts their findings
 * together as an `IofEventClasses`.
 */
import { InputError } from '../../errors.js';
import type { XmlHandler, XmlTokenizer } from '../../xml/tokenizer.js';
import { judgeIofRoot, versionFromElement } from '../identify.js';
import type { IofEventClasses, IofMessageType, IofVersion } from '../model.js';
import { ClassRegistry } from './classes.js';
import {
  CHILDREN,
  LAST_EVENT_CONTEXT,
  LAST_LIST_CONTEXT,
  ROOT,
  SKIP,
  SPLIT,
  SPLIT_CODE,
  SPLIT_CONTROL,
  TEXT_CONTEXTS,
} from './contexts.js';
import { CourseDataPart } from './course-data.js';
import { EventPart } from './event.js';
import { ListsPart } from './lists.js';
import { SplitTimes } from './splits.js';

export class EventClassesReader implements XmlHandler {
  private messageType: IofMessageType | undefined;
  private version: IofVersion | undefined;
  private doctypeSeen: { name: string; systemId: string | undefined } | undefined;

  /** The context of every open element, innermost last. */
  private readonly contexts: number[] = [];
  /** The text of the element being read, when its context reads text. */
  private collected = '';

  private readonly classes: ClassRegistry;
  private readonly splits = new SplitTimes();
  private readonly event = new EventPart();
  private readonly lists: ListsPart;
  private readonly courseData: CourseDataPart;

  /**
   * `root`, when given, is a root element already judged by the caller: the reader then starts inside it and reads one
   * of its children's subtrees (an event list reads each of its events with a reader of its own).
   */
  constructor(
    private readonly tokenizer: XmlTokenizer,
    private readonly source: string,
    root?: { messageType: IofMessageType; version: IofVersion | undefined },
  ) {
    this.classes = new ClassRegistry(source);
    this.lists = new ListsPart(this.classes, this.splits);
    this.courseData = new CourseDataPart(this.classes);
    if (root !== undefined) {
      this.messageType = root.messageType;
      this.version = root.version;
      this.contexts.push(ROOT);
    }
  }

  doctype(name: string, systemId: string | undefined): void {
    this.doctypeSeen = { name, systemId };
  }

  startElement(name: string, attributes: string, qualified: string): void {
    const depth = this.contexts.length;
    if (depth === 0) {
      const root = judgeIofRoot(name, qualified, attributes, this.doctypeSeen, this.source);
      this.messageType = root.messageType;
      this.version = root.version;
      this.contexts.push(ROOT);
      return;
    }
    if (this.version === undefined) this.version = versionFromElement(name, attributes, this.source);
    const parent = this.contexts[depth - 1]!;
    let context = SKIP;
    if (parent === SPLIT) {
      // Split times are most of the elements of a result list: their children are told apart by comparing names (a
      // table look-up by a name fresh from the text hashes it) and have nothing to start.
      if (name === 'ControlCode') context = SPLIT_CODE;
      else if (name === 'Control') context = SPLIT_CONTROL;
    } else if (parent !== SKIP) {
      context = CHILDREN[parent]?.get(name) ?? SKIP;
      if (context !== SKIP) context = this.enter(context, attributes);
    }
    this.contexts.push(context);
    if (TEXT_CONTEXTS[context] === 1) {
      this.collected = '';
      this.tokenizer.captureText = true;
    }
  }

  text(text: string): void {
    this.collected += text;
  }

  endElement(): void {
    const context = this.contexts.pop();
    if (context === undefined || context === SKIP) return;
    // Before the routing: this runs for every split time.
    if (context === SPLIT_CODE) this.splits.code(this.collected.trim());
    else this.leave(context, TEXT_CONTEXTS[context] === 1 ? this.collected.trim() : '');
  }

  /**
   * Starts what an element begins, in the part that reads it; may turn the context into `SKIP` (a second event of an
   * event list, split times that cannot matter).
   */
  private enter(context: number, attributes: string): number {
    if (context <= LAST_EVENT_CONTEXT) return this.event.enter(context, attributes);
    if (context <= LAST_LIST_CONTEXT) return this.lists.enter(context, attributes);
    return this.courseData.enter(context);
  }

  private leave(context: number, value: string): void {
    if (context <= LAST_EVENT_CONTEXT) this.event.leave(context, value);
    else if (context <= LAST_LIST_CONTEXT) this.lists.leave(context, value);
    else this.courseData.leave(context, value);
  }

  result(encoding: IofEventClasses['encoding']): IofEventClasses {
    if (this.messageType === undefined) {
      throw new InputError(this.source, 'not_well_formed', 'not well-formed XML: no root element found.');
    }
    // Course data is read in full by parseCourseData; the course of a class there is the assigned course's.
    const withCourse = this.messageType !== 'CourseData';
    const counts: IofEventClasses['counts'] = { persons: this.lists.persons, teams: this.lists.teams };
    if (this.messageType === 'CourseData') {
      const { courses, controls } = this.courseData.counts();
      counts.courses = courses;
      counts.controls = controls;
    }
    const { event, races, firstStart } = this.event;
    return {
      version: this.version ?? '3.0',
      messageType: this.messageType,
      encoding,
      ...(event === undefined ? {} : { event }),
      races,
      classes: this.classes.toIofClasses(withCourse),
      counts,
      ...(firstStart === undefined ? {} : { firstStart }),
    };
  }
}
