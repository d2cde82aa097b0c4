/**
 * The ids of a bulk import. A route's id is a function of what makes it a distinct route (its bytes and whose run it
 * is), so a retry or a re-run overwrites instead of duplicating; the journal's content hash also covers what only
 * decorates the route (class, device), so a corrected manifest is posted again under the same id.
 */
import { createHash } from 'node:crypto';
import { canonicalJson } from '../../core/hash.js';
import { contentRouteId } from '../../resources/routes.js';

export interface RouteIdOptions {
  classId?: number | undefined;
  person?: { firstName?: string; lastName?: string } | undefined;
  deviceModel?: string | undefined;
}

/**
 * Deterministic, 46 characters (`lb-` + SHA-256 base64url). Only `person` changes the id: one file shared by two
 * runners is two routes, while another class or device for the same run is a correction that must overwrite. Without
 * a person the id is the one `routes.import` derives from the content, so a route imported alone keeps its id here.
 */
export function routeId(bytes: Uint8Array, options: RouteIdOptions = {}): string {
  const person = compact(options.person ?? {});
  if (Object.keys(person).length === 0) return contentRouteId(bytes);
  return `lb-${digest(bytes, { person }, 'base64url')}`;
}

/** SHA-256 (hex) of the bytes and every option sent with them: a change of any means the route must go again. */
export function sentContentHash(bytes: Uint8Array, options: RouteIdOptions): string {
  return digest(bytes, compact({ ...options, person: options.person && compact(options.person) }), 'hex');
}

function digest(bytes: Uint8Array, extra: object, encoding: 'hex' | 'base64url'): string {
  return createHash('sha256').update(bytes).update('\u0000').update(canonicalJson(extra)).digest(encoding);
}

function compact<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== '')) as Partial<T>;
}

/** SHA-256 (hex) of the file's bytes alone. */
export function fileHash(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * Which run a route is, whatever its bytes: the same file (by real path), the same runner and the same start are the
 * same run, so an edited file (a trimmed finish, a fixed glitch) keeps this key while its content id changes. A file
 * whose start moved (a trimmed warm-up) or that moved folder is taken for another run.
 */
export function runKey(realPath: string, person: RouteIdOptions['person'], startMs: number): string {
  const who = compact(person ?? {});
  return createHash('sha256')
    .update(canonicalJson({ file: realPath, person: who, startMs }))
    .digest('hex');
}
