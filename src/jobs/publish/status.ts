/** Where each importable event the publish state records stands on the service now: one GET each. */
import type { LiveloxClient } from '../../client.js';
import type { ImportableEventState } from '../../resources/importable-event-schemas.js';
import type { PublishLinks, PublishedEvent } from '../../store/publish-state.js';

export interface PublishedStatus {
  file: string;
  name: string;
  key: string;
  importableId: string;
  /** What the last publish recorded (`replaced`: it was gone, and a newer one was made for its key). */
  recorded: PublishedEvent['state'];
  /** What the service says now (`gone`: removed, or not this user's). */
  state: ImportableEventState;
  eventId?: number;
  links: PublishLinks;
}

export async function publishedStatus(
  client: LiveloxClient,
  published: readonly PublishedEvent[],
  options: { signal?: AbortSignal } = {},
): Promise<PublishedStatus[]> {
  const out: PublishedStatus[] = [];
  for (const p of published) {
    const { state, event } = await client.importableEvents.state(p.importableId, options);
    const eventId = event?.importedEvent?.id ?? p.eventId;
    const link = event?.link;
    const links: PublishLinks = {
      ...p.links,
      ...(link?.liveloxShowEventUrl ? { showUrl: link.liveloxShowEventUrl } : {}),
      ...(link?.liveloxEditEventUrl ? { editUrl: link.liveloxEditEventUrl } : {}),
    };
    // Imported since: the import address is spent.
    if (state === 'imported') delete links.importUrl;
    out.push({
      file: p.file,
      name: p.name,
      key: p.key,
      importableId: p.importableId,
      recorded: p.state,
      state,
      ...(eventId === undefined || state === 'gone' ? {} : { eventId }),
      links,
    });
  }
  return out;
}
