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

interface LinkOptions {
  template: string;
  viewerUrl: string;
  alwaysTemplate?: boolean | undefined;
}

/** The viewer link of one service class: the service's url, or the template filled in. */
export function serviceClassLink(
  cls: ServiceClass,
  event: LiveloxEvent,
  options: LinkOptions,
): { url: string; from: 'service' | 'template' } {
  return classLink(options.alwaysTemplate ? undefined : cls.url, options.template, {
    viewerUrl: options.viewerUrl,
    classId: cls.id,
    eventId: event.id,
    className: cls.name,
    eventName: event.name,
  });
}

/** A link for every mapped class, in the event system's order. `alwaysTemplate` ignores the service's urls. */
export function linksOfMapping(mapping: ClassMapping, event: LiveloxEvent, options: LinkOptions): MatchLink[] {
  return mapping.matches.map((match) => {
    const link = serviceClassLink(match.service, event, options);
    return { match, url: link.url, from: link.from };
  });
}

export const emsClassRef = (c: EmsClass) => compact({ id: c.id, name: c.name });
