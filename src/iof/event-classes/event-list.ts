/**
 * Every event of an IOF EventList, streamed. A portal's list holds thousands of events (Eventor's fixtures), so it is
 * never held as a tree: each event is read by an event-and-classes reader of its own (`handler.ts`), started inside
 * the list's root, which gives for a listed event what the same event gives in any other message (ids, name, dates,
 * organisers and their countries, races with dates and positions, classes). Only the events found are kept.
 *
 * IOF has no element for some of what portals keep of an event; they write it under the event's `Extensions`, in
 * elements of their own namespace. Key-value entries there (any element with a `Key` and a `Value` child) are kept for
 * the keys the caller asks for, so this reader knows no portal's keys: the caller names them.
 */
import { InputError } from '../../errors.js';
import type { XmlEncoding } from '../../xml/decode.js';
import type { XmlInput } from '../../xml/stream.js';
import type { XmlHandler, XmlTokenizer } from '../../xml/tokenizer.js';
import { judgeIofRoot, versionFromElement } from '../identify.js';
import type { EventInfo, IofClass, IofVersion, RaceInfo } from '../model.js';
import { EventClassesReader } from './handler.js';
import { streamIof, type ReadEventClassesOptions } from './read.js';

/** Default cap on the events of one list: a national federation's whole history is some tens of thousands. */
export const MAX_LISTED_EVENTS = 200_000;

/** One event of an event list. */
export interface IofListedEvent {
  /** As `readEventAndClasses` gives an event (`externalIds` and `countries` included). */
  event: EventInfo;
  /** The event's races, in document order. */
  races: RaceInfo[];
  /** The classes the event lists (`Event/Class`); entries are 0. */
  classes: IofClass[];
  /**
   * Values of the key-value entries under the event's `Extensions` whose key was asked for (`extensionKeys`), by key;
   * the first entry of a key wins. Absent when none was found.
   */
  extensions?: Record<string, string>;
}

export interface IofEventList {
  version: IofVersion;
  encoding: XmlEncoding;
  events: IofListedEvent[];
}

export interface ReadEventListOptions extends ReadEventClassesOptions {
  /** Keys of the `Extensions` key-value entries to keep (`Key` text, compared exactly). Default: none. */
  extensionKeys?: readonly string[];
  /** Most events accepted; more is `too_large`. Default `MAX_LISTED_EVENTS` (200,000). */
  maxEvents?: number;
}

/** A key-value entry candidate: an open element under `Extensions`, and what its `Key` and `Value` children said. */
interface EntryFrame {
  key: string | undefined;
  value: string | undefined;
}

class EventListReader implements XmlHandler {
  readonly events: IofListedEvent[] = [];
  version: IofVersion | undefined;
  private doctypeSeen: { name: string; systemId: string | undefined } | undefined;
  /** Elements open (the root is depth 1 once started). */
  private depth = 0;
  /** The reader of the event being read. */
  private event: EventClassesReader | undefined;
  private extensions: Record<string, string> | undefined;
  /** Depth of the event's `Extensions` element while inside it, else 0. */
  private extensionsDepth = 0;
  /** One frame per open element below `Extensions`, innermost last. */
  private readonly frames: EntryFrame[] = [];
  /** Which part of the enclosing frame the text being captured is. */
  private capturing: 'key' | 'value' | undefined;
  private captured = '';

  constructor(
    private readonly tokenizer: XmlTokenizer,
    private readonly source: string,
    private readonly wanted: ReadonlySet<string>,
    private readonly maxEvents: number,
  ) {}

  doctype(name: string, systemId: string | undefined): void {
    this.doctypeSeen = { name, systemId };
  }

  startElement(name: string, attributes: string, qualified: string): void {
    const depth = this.depth++;
    if (depth === 0) {
      const root = judgeIofRoot(name, qualified, attributes, this.doctypeSeen, this.source);
      if (root.messageType !== 'EventList') {
        throw new InputError(this.source, 'wrong_message_type', `is an IOF ${root.messageType}, not an event list.`);
      }
      this.version = root.version;
      return;
    }
    if (this.version === undefined) this.version = versionFromElement(name, attributes, this.source);
    if (depth === 1) {
      if (name !== 'Event') return;
      if (this.events.length >= this.maxEvents) {
        throw new InputError(this.source, 'too_large', `the list has more than ${this.maxEvents} events.`);
      }
      this.event = new EventClassesReader(this.tokenizer, this.source, {
        messageType: 'EventList',
        version: this.version,
      });
      this.extensions = undefined;
    }
    const event = this.event;
    if (event === undefined) return;
    event.startElement(name, attributes, qualified);
    if (this.wanted.size === 0) return;
    if (this.extensionsDepth === 0) {
      if (depth === 2 && name === 'Extensions') this.extensionsDepth = depth;
      return;
    }
    // Below Extensions: every element may be an entry; a Key or Value child says what its parent holds.
    const parent = this.frames.at(-1);
    this.frames.push({ key: undefined, value: undefined });
    this.capturing = undefined;
    if (parent === undefined) return;
    // A value is read only once its key is known to be wanted: other entries' values (host messages) may be long.
    const part =
      name === 'Key'
        ? 'key'
        : name === 'Value' && parent.key !== undefined && this.wanted.has(parent.key)
          ? 'value'
          : undefined;
    if (part !== undefined) {
      this.capturing = part;
      this.captured = '';
      this.tokenizer.captureText = true;
    }
  }

  text(text: string): void {
    if (this.capturing !== undefined) this.captured += text;
    else this.event?.text(text);
  }

  endElement(): void {
    const depth = --this.depth;
    const event = this.event;
    if (event === undefined) return;
    if (this.extensionsDepth > 0) {
      if (depth === this.extensionsDepth) this.extensionsDepth = 0;
      else this.closeFrame();
    }
    event.endElement();
    if (depth === 1) {
      // The list's encoding is known at its end only; an event's part of the result does not depend on it.
      const { event: info, races, classes } = event.result('utf-8');
      this.events.push({
        event: info ?? { name: '', organisers: [] },
        races,
        classes,
        ...(this.extensions === undefined ? {} : { extensions: this.extensions }),
      });
      this.event = undefined;
    }
  }

  private closeFrame(): void {
    const frame = this.frames.pop();
    const parent = this.frames.at(-1);
    if (this.capturing !== undefined && parent !== undefined) parent[this.capturing] ??= this.captured.trim();
    this.capturing = undefined;
    if (frame?.key !== undefined && frame.value !== undefined && this.wanted.has(frame.key)) {
      (this.extensions ??= {})[frame.key] ??= frame.value;
    }
  }
}

/**
 * Reads every event of an IOF EventList (3.0; 2.0.3 by the same element table) from bytes, a stream of chunks or a file
 * path, in bounded memory but for the events found. Each event gives what `readEventAndClasses` gives for an event
 * (with its listed classes), and the `Extensions` entries asked for by `extensionKeys`.
 *
 * Throws `InputError` with reason `wrong_message_type` (another IOF message), `too_large` (more than `maxEvents`
 * events, or bytes than `maxBytes`), and those of `readEventAndClasses` (`not_iof`, `empty`, `not_well_formed`,
 * `entity_declaration`, ...); rejects with the signal's reason when aborted.
 */
export async function readEventList(input: XmlInput, options: ReadEventListOptions = {}): Promise<IofEventList> {
  const wanted = new Set(options.extensionKeys ?? []);
  const { reader, encoding } = await streamIof(input, options, (tokenizer, source) => {
    return new EventListReader(tokenizer, source, wanted, options.maxEvents ?? MAX_LISTED_EVENTS);
  });
  return { version: reader.version ?? '3.0', encoding, events: reader.events };
}
