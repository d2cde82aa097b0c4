/**
 * The event and classes of any IOF message (class, entry, start and result lists, course data; IOF 3.0 and 2.0.3),
 * read as a stream: a 50 MB result list from an event system is read in bounded memory, without a tree, keeping only
 * the event, the classes, their entry counts and what their courses agree on (one split sequence per class, never one
 * per competitor).
 *
 * This is the entry point; the reading is spread by job: `handler.ts` follows the elements through the context table
 * (`contexts.ts`) and hands them to the event part (`event.ts`), the lists part (`lists.ts`, with `splits.ts` and
 * `course-tally.ts`) and the course data part (`course-data.ts`), which all name classes through `classes.ts`.
 */
import { InputError } from '../../errors.js';
import type { XmlEncoding } from '../../xml/decode.js';
import { streamXml, type XmlInput } from '../../xml/stream.js';
import type { XmlHandler, XmlTokenizer } from '../../xml/tokenizer.js';
import { IOF_ENTITY_DECLARATION_HINT, assertMayBeXml } from '../identify.js';
import type { IofEventClasses } from '../model.js';
import { EventClassesReader } from './handler.js';

export interface ReadEventClassesOptions {
  /** Name of the input in errors. Default: the path, or `input`. */
  source?: string;
  /** Cancels the reading; the promise rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Largest document accepted, in bytes. Default 512 MiB. */
  maxBytes?: number;
}

/**
 * Reads the event and the classes of any IOF XML message, IOF 3.0 or 2.0.3, from bytes, a stream of chunks or a file
 * path, in bounded memory (nothing but the event and the classes is kept, with at most one control sequence per class;
 * a 50 MB result list needs a few MB).
 *
 * - Classes come from class lists (`Class`), the event's class definitions, entry lists (the `Class` of each
 *   `PersonEntry`/`TeamEntry`, 2.0.3 `EntryClass`), start and result lists (`ClassStart`/`ClassResult`, 2.0.3 by
 *   `ClassId`/`ClassShortName`/`EventClass`) and course data (`ClassCourseAssignment`, 2.0.3 `Course/ClassShortName`).
 *   A class met in several places is one class (matched by id, else name, else short name).
 * - `entries` counts the persons or teams of the class in this document; `courseIds`/`courseNames` collect the
 *   courses named for it (class-level `Course`, each competitor's `Course`, 2.0.3 `CourseVariation`, assignments);
 *   `legs` comes from `Class/Leg` definitions, team members' leg numbers (2.0.3 `TeamSequence`), `AllowedOnLeg`, or
 *   failing those the most members of one team.
 * - `course` is what every course element of the class agrees on (id, name, length, climb, number of controls), and
 *   `course.controls` the control codes of its OK individual results' split times when they all give the same
 *   sequence; left out for course data. See `IofClass.course`.
 * - The event also gives `externalIds` (every `Event/Id` with its `type`, 2.0.3 `EventId` with its `idManager`) and
 *   `countries` (the organisers' country codes), and each 3.0 race its arena `position`, so the event can be looked
 *   up on the service that issued its id and matched by place.
 * - Entries of a block without any class (a schema-invalid `ClassResult` with no `Class`) are counted in `counts`
 *   only. Event lists give their first event (`readEventList` in `event-list.ts` gives them all).
 *
 * Throws `InputError` with reason `not_iof`, `unsupported_version`, `empty`, `unreadable`, `too_large`,
 * `unsupported_encoding`, `bad_encoding`, `not_well_formed`, `entity_declaration` or `too_deep` (with line and column
 * where there is one); rejects with the signal's reason when aborted.
 */
export async function readEventAndClasses(
  input: XmlInput,
  options: ReadEventClassesOptions = {},
): Promise<IofEventClasses> {
  const { reader, encoding } = await streamIof(input, options, (tokenizer, source) => {
    return new EventClassesReader(tokenizer, source);
  });
  return reader.result(encoding);
}

/**
 * Streams an IOF document through the handler `makeReader` builds, with the IOF readers' rules (the head judged as
 * XML, IOF's wording for entity declarations, size and signal), and answers the handler with the document's encoding.
 */
export async function streamIof<R extends XmlHandler>(
  input: XmlInput,
  options: ReadEventClassesOptions,
  makeReader: (tokenizer: XmlTokenizer, source: string) => R,
): Promise<{ reader: R; encoding: XmlEncoding; source: string }> {
  const source = options.source ?? (typeof input === 'string' ? input : 'input');
  let reader: R | undefined;
  const info = await streamXml(
    input,
    (tokenizer) => {
      reader = makeReader(tokenizer, source);
      return reader;
    },
    {
      source,
      inspectHead: (head) => assertMayBeXml(head, source),
      entityDeclarationHint: IOF_ENTITY_DECLARATION_HINT,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
      ...(options.maxBytes === undefined ? {} : { maxBytes: options.maxBytes }),
    },
  );
  if (reader === undefined) throw new InputError(source, 'empty', 'the file is empty (0 bytes).');
  return { reader, encoding: info.encoding, source };
}
