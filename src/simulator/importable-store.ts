/**
 * The importable events the simulator keeps (the Event Integration API, observed, not published): each with its owner,
 * the object as last sent, the files uploaded, and the world event it became once imported. Plain data; the handlers
 * are in importable-events.ts.
 */
import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { importableEventInputSchema } from '../resources/importable-event-schemas.js';

export interface SimImportableEvent {
  /** The id the service gives (a GUID here: its real shape is unknown). */
  id: string;
  /** The principal's identity that created it (`app:...` or `user:...`): only it may see and change it. */
  owner: string;
  /** A name for the owner, the imported event's organiser when the course file names none. */
  ownerName: string;
  object: z.output<typeof importableEventInputSchema>;
  /** Uploaded files by name; an upload of the same name replaces the file. */
  files: Map<string, Uint8Array>;
  /** The world event it became, once imported in the browser. */
  importedEventId?: number;
  /** Imports done: the browser step, then each re-import. */
  imports: number;
  /** Updates (PUT) received. */
  updates: number;
}

/** How the simulator answers, for clients that must read either (the service's casing and validation shape are guesses). */
export interface SimAnswerStyle {
  /** `camel` (default) or `pascal` property names in JSON answers. */
  casing: 'camel' | 'pascal';
  /** `lists` (default): `{ errors, warnings }`; `text`: a plain-text answer no client can read as lists. */
  validation: 'lists' | 'text';
}

/** Importable events kept at most; past it the oldest is dropped (a CI simulator runs for days). */
export const MAX_IMPORTABLE_EVENTS = 1000;
/** Bytes of uploaded files kept across all importable events; past it the oldest events are dropped. 512 MiB. */
export const MAX_IMPORTABLE_BYTES = 512 * 1024 * 1024;

export class ImportableEventStore {
  readonly #events = new Map<string, SimImportableEvent>();
  readonly #maxBytes: number;
  style: SimAnswerStyle = { casing: 'camel', validation: 'lists' };

  /** `maxBytes`: files kept across all importable events (tests set less). */
  constructor(maxBytes = MAX_IMPORTABLE_BYTES) {
    this.#maxBytes = maxBytes;
  }

  create(owner: string, ownerName: string, object: SimImportableEvent['object']): SimImportableEvent {
    const event: SimImportableEvent = {
      id: randomUUID(),
      owner,
      ownerName,
      object,
      files: new Map(),
      imports: 0,
      updates: 0,
    };
    this.#events.set(event.id, event);
    if (this.#events.size > MAX_IMPORTABLE_EVENTS) this.#events.delete(this.#events.keys().next().value!);
    return event;
  }

  /**
   * Gives `event` its files after an upload, then drops the oldest other importable events while the files kept pass
   * `maxBytes`: a shared simulator must not grow for ever. The event just given files is never dropped.
   */
  setFiles(event: SimImportableEvent, files: Map<string, Uint8Array>): void {
    event.files = files;
    let bytes = 0;
    for (const e of this.#events.values()) for (const f of e.files.values()) bytes += f.length;
    for (const [id, oldest] of this.#events) {
      if (bytes <= this.#maxBytes) break;
      if (oldest === event) continue;
      for (const f of oldest.files.values()) bytes -= f.length;
      this.#events.delete(id);
    }
  }

  get(id: string): SimImportableEvent | undefined {
    return this.#events.get(id);
  }

  delete(id: string): boolean {
    return this.#events.delete(id);
  }

  list(): SimImportableEvent[] {
    return [...this.#events.values()];
  }
}
