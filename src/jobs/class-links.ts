/**
 * The class step both `link` and `sync` take once an event is chosen: the service event's classes, mapped from the
 * event system's, each with its viewer link (the service's class url, or the template filled in).
 */
import { compact } from '../core/compact.js';
import type { EmsClass } from '../ems/source.js';
import { classLink } from '../links/template.js';
import type { ClassMapping, ClassMatch, ServiceClass } from '../match/class-mapping.js';
import type { LiveloxEvent } from '../resources/events.js';

/** The service event's classes as class mapping reads them. */
export function serviceClassesOf(event: LiveloxEvent): ServiceClass[] {
  return (event.classes ?? []).map((c) => compact({ id: c.id, name: c.name, url: c.url }));
}

export interface MatchLink {
  match: ClassMatch;
  url: string;
  from: 'service' | 'template';
}

/** A link for every mapped class, in the event system's order. `alwaysTemplate` ignores the service's urls. */
export function linksOfMapping(
  mapping: ClassMapping,
  event: LiveloxEvent,
  options: { template: string; viewerUrl: string; alwaysTemplate?: boolean | undefined },
): MatchLink[] {
  return mapping.matches.map((match) => {
    const link = classLink(options.alwaysTemplate ? undefined : match.service.url, options.template, {
      viewerUrl: options.viewerUrl,
      classId: match.service.id,
      eventId: event.id,
      className: match.service.name,
      eventName: event.name,
    });
    return { match, url: link.url, from: link.from };
  });
}

export const emsClassRef = (c: EmsClass) => compact({ id: c.id, name: c.name });
