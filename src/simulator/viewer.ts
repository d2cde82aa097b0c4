/**
 * Stand-ins for the service's viewer pages, so that every link the simulator hands out (class urls, route urls)
 * leads somewhere a link checker or a browser test can open: 200 for what exists, 404 for what does not.
 */
import type { SimRequest, SimResponse } from './http.js';
import { escapeHtml, html } from './http.js';
import type { RouteRecord, SimState } from './state.js';

export function handleViewer(req: SimRequest, state: SimState): SimResponse {
  if (req.method !== 'GET') return viewerPage(405, 'Method not allowed', '<p>The viewer only answers GET.</p>');
  const p = req.url.searchParams;
  const routeNumber = /^\/Routes\/(Show|Edit)\/(\d+)\/?$/.exec(req.path);
  if (routeNumber) {
    const route = findRoute(state, Number(routeNumber[2]));
    if (!route) return viewerPage(404, 'Route not found', '<p>No route has this number.</p>');
    return viewerPage(
      200,
      `${routeNumber[1] === 'Edit' ? 'Edit route' : 'Route'} ${route.routeNumber}`,
      routeDetails(route),
    );
  }
  if (req.path === '/Viewer' || req.path.startsWith('/Viewer/')) {
    const classId = p.get('classId');
    const eventId = p.get('eventId');
    if (classId !== null) {
      const found = /^\d+$/.test(classId) ? state.classesById.get(Number(classId)) : undefined;
      if (!found) return viewerPage(404, 'Class not found', `<p>No class has the id ${escapeHtml(classId)}.</p>`);
      return viewerPage(
        200,
        `${found.event.name}: ${found.cls.name}`,
        `<p data-event-id="${found.event.id}" data-class-id="${found.cls.id}">Class ${escapeHtml(found.cls.name)} of ${escapeHtml(found.event.name)}.</p>`,
      );
    }
    if (eventId !== null) {
      const event = /^\d+$/.test(eventId) ? state.eventsById.get(Number(eventId)) : undefined;
      if (!event) return viewerPage(404, 'Event not found', `<p>No event has the id ${escapeHtml(eventId)}.</p>`);
      return viewerPage(200, event.name, `<p data-event-id="${event.id}">${escapeHtml(event.name)}</p>`);
    }
    return viewerPage(404, 'Nothing to show', '<p>The viewer needs a classId or an eventId.</p>');
  }
  return viewerPage(404, 'Page not found', `<p>The simulated viewer has no page ${escapeHtml(req.path)}.</p>`);
}

function findRoute(state: SimState, n: number): RouteRecord | undefined {
  for (const r of state.routes.values()) if (r.routeNumber === n) return r;
  return undefined;
}

function routeDetails(route: RouteRecord): string {
  const person = route.person ? [route.person.firstName, route.person.lastName].filter(Boolean).join(' ') : '';
  const rows = [
    ['Status', route.result?.status ?? 'pending'],
    ['Event', route.result?.eventName ?? ''],
    ['Class', route.result?.className ?? ''],
    ['Person', person],
    ['Device', route.deviceModel ?? ''],
  ];
  return `<dl>${rows.map(([k, v]) => `<dt>${k}</dt><dd data-field="${k!.toLowerCase()}">${escapeHtml(v!)}</dd>`).join('')}</dl>`;
}

/** A viewer page: a title and a body of HTML the caller has escaped. */
export function viewerPage(status: number, title: string, body: string): SimResponse {
  return html(
    status,
    `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body><h1>${escapeHtml(title)}</h1>${body}</body></html>`,
  );
}
