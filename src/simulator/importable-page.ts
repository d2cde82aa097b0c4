/**
 * The browser step of the Event Integration API, simulated: the page at an importable event's import URL shows what
 * will be imported and what the validation finds, with a button a person presses (a plain HTML form POST, no script);
 * pressing it imports the event into the simulated world. Also the stand-in for the edit URL an imported event's link
 * gives. The real pages need a signed-in user; the simulator takes the press as the owner's.
 */
import type { SimRequest, SimResponse } from './http.js';
import { escapeHtml } from './http.js';
import type { SimImportableEvents } from './importable-events.js';
import { validateImportable } from './importable-validation.js';
import type { SimState } from './state.js';
import { viewerPage } from './viewer.js';

/** The page a viewer request is for, with its name in the statistics; undefined when it is none of these pages. */
export async function importablePage(
  req: SimRequest,
  state: SimState,
  importables: SimImportableEvents,
): Promise<{ endpoint: string; answer: SimResponse } | undefined> {
  const importPath = /^\/ImportableEvents\/([^/]+)\/Import\/?$/.exec(req.path);
  if (importPath) {
    const endpoint = `${req.method} /viewer/ImportableEvents/{id}/Import`;
    return { endpoint, answer: await importPageAnswer(req, state, importables, importPath[1]!) };
  }
  const editPath = /^\/Events\/(\d+)\/Edit\/?$/.exec(req.path);
  if (editPath && req.method === 'GET') {
    const event = state.eventsById.get(Number(editPath[1]));
    const answer = event
      ? viewerPage(200, `Edit ${event.name}`, `<p data-event-id="${event.id}">${escapeHtml(event.name)}</p>`)
      : viewerPage(404, 'Event not found', `<p>No event has the id ${escapeHtml(editPath[1]!)}.</p>`);
    return { endpoint: 'GET /viewer/Events/{id}/Edit', answer };
  }
  return undefined;
}

async function importPageAnswer(
  req: SimRequest,
  state: SimState,
  importables: SimImportableEvents,
  rawId: string,
): Promise<SimResponse> {
  let id: string;
  try {
    id = decodeURIComponent(rawId);
  } catch {
    return viewerPage(400, 'Bad address', '<p>The importable event id is not valid.</p>');
  }
  const event = state.importableEvents.get(id);
  if (!event)
    return viewerPage(404, 'Importable event not found', `<p>No importable event has the id ${escapeHtml(id)}.</p>`);
  if (req.method === 'POST') {
    const outcome = await importables.importNow(event);
    if (!outcome.ok) {
      return viewerPage(outcome.status, `${event.object.name}: not imported`, list('errors', outcome.errors));
    }
    const show = importables.urls(event).show ?? '';
    return viewerPage(
      200,
      `${event.object.name}: imported`,
      `<p data-event-id="${outcome.event.id}">Imported as event ${outcome.event.id}. <a href="${escapeHtml(show)}">Show the event</a></p>`,
    );
  }
  if (req.method !== 'GET')
    return viewerPage(405, 'Method not allowed', '<p>Use GET to see the page, POST to import.</p>');
  const checked = await validateImportable(event);
  const files = [...event.files.keys()].map((n) => `<li>${escapeHtml(n)}</li>`).join('');
  const action = importables.urls(event).import;
  const button =
    checked.errors.length === 0
      ? `<form method="post" action="${escapeHtml(action)}"><button type="submit" name="confirm" value="import">Import the event</button></form>`
      : '<p>Fix the errors and upload again before importing.</p>';
  return viewerPage(
    200,
    `Import ${event.object.name}`,
    `<p>Files uploaded:</p><ul>${files}</ul>${list('errors', checked.errors)}${list('warnings', checked.warnings)}${button}`,
  );
}

function list(kind: 'errors' | 'warnings', items: readonly string[]): string {
  if (items.length === 0) return '';
  return `<ul data-${kind}>${items.map((i) => `<li>${escapeHtml(i)}</li>`).join('')}</ul>`;
}
