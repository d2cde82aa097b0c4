/**
 * Everything the simulator remembers: the dataset with its indexes, the registered credentials, OAuth codes and
 * tokens, and posted routes. Handlers read and change it; nothing here knows about HTTP. Events change only through
 * the world (`world.ts`), which keeps the indexes here in step.
 */
import { randomBytes } from 'node:crypto';
import type { ImportRecord } from '../resources/routes.js';
import type { SimClock } from './clock.js';
import { ImportableEventStore } from './importable-store.js';
import type { ParsedRoute } from './route-parse.js';
import type { SimClass, SimCountry, SimDataset, SimEvent } from './model.js';
import { EventIndex } from './search.js';

export const ALL_SCOPES = ['routes.import', 'events.import', 'courses.read'] as const;

export interface ApiKeyRecord {
  appId: string;
  /** What the key may do; the default key has every scope, the limited key lacks `courses.read`. */
  scopes: ReadonlySet<string>;
}

export interface OAuthClient {
  clientId: string;
  name: string;
  /** Loopback redirect URIs on any port are accepted (RFC 8252 7.3) when this is set. */
  allowLoopbackRedirect: boolean;
  redirectUris: readonly string[];
}

export interface SimUser {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
}

export interface AuthorizationCode {
  code: string;
  clientId: string;
  redirectUri: string;
  scopes: string[];
  codeChallenge: string;
  userId: string;
  expiresMs: number;
  used: boolean;
  /** Tokens issued for this code, revoked if the code is replayed (RFC 6749 4.1.2). */
  refreshToken?: string;
}

export interface TokenRecord {
  token: string;
  kind: 'access' | 'refresh';
  clientId: string;
  userId: string;
  scopes: string[];
  /** Refresh tokens never expire (contract section 5.2). */
  expiresMs: number | undefined;
  revoked: boolean;
  /** For access tokens: the refresh token they came with, so revoking it revokes them. */
  refreshToken?: string;
  /** For refresh tokens: replaced by a newer one at a refresh (rotation on), and refused since. */
  rotated?: boolean;
}

export type Principal =
  | { kind: 'apiKey'; identity: string; scopes: ReadonlySet<string> }
  | { kind: 'user'; identity: string; userId: string; clientId: string; scopes: ReadonlySet<string> };

export interface RouteRecord {
  /** The id the client knows: its own, or the one generated for it. */
  id: string;
  identity: string;
  /** A number the viewer pages use for the route. */
  routeNumber: number;
  receivedMs: number;
  readyMs: number;
  /** The base64 as posted, until it is parsed (then dropped: the parse result is a third of its size or less). */
  data: string | undefined;
  /** The parse, once the parser got to it; dropped again once the import settled. */
  parsed?: ParsedRoute;
  /** Settles when the parse has finished (or was skipped because the route was evicted). */
  parsing?: Promise<unknown>;
  deviceModel?: string;
  /** Set only for API-key posts (contract 2.1); a user's routes belong to the user. */
  person?: { firstName?: string | undefined; lastName?: string | undefined };
  classId?: number;
  /** How many times this id was posted; every re-post overwrites. */
  postCount: number;
  /** Computed once the import delay has passed. */
  result?: ImportRecord & { eventId?: number; classId?: number };
}

/** How many routes, and how many bytes of their data, the simulator keeps; the oldest posted go first. */
export interface RouteLimits {
  maxRoutes: number;
  maxBytes: number;
}

export class SimState {
  readonly clock: SimClock;
  readonly dataset: SimDataset;
  readonly eventsById = new Map<number, SimEvent>();
  readonly eventIndex: EventIndex;
  readonly classesById = new Map<number, { event: SimEvent; cls: SimClass }>();
  readonly countriesById = new Map<number, SimCountry>();
  readonly countriesByCode = new Map<string, SimCountry>();
  /** Alpha-3 codes of countries that have at least one event. */
  readonly countriesWithEvents = new Set<string>();

  readonly apiKeys = new Map<string, ApiKeyRecord>();
  readonly clients = new Map<string, OAuthClient>();
  readonly users = new Map<string, SimUser>();
  readonly codes = new Map<string, AuthorizationCode>();
  readonly tokens = new Map<string, TokenRecord>();
  /** Posted routes, oldest first (a re-post moves a route to the end); change them through storeRoute only. */
  readonly routes = new Map<string, RouteRecord>();
  /** How many routes were evicted to stay within `routeLimits`. */
  evictedRoutes = 0;
  routeLimits: RouteLimits = { maxRoutes: Infinity, maxBytes: Infinity };
  /** Importable events (the Event Integration API, observed, not published). */
  readonly importableEvents = new ImportableEventStore();
  /** Who signs in at the consent page: a key of `users`; default the first user. */
  signedInUserId: string | undefined;
  /** What the simulated user answers at the consent page. */
  oauthDecision: 'approve' | 'deny' = 'approve';
  /** Each refresh answers a new refresh token and ends the one sent (`SimulatorOptions.refreshTokenRotation`). */
  refreshTokenRotation = false;
  #routeCounter = 0;
  #generatedIdCounter = 0;

  constructor(dataset: SimDataset, clock: SimClock) {
    // A list of its own: the world adds and removes events (world.ts), never in the caller's dataset.
    this.dataset = { ...dataset, events: [...dataset.events] };
    this.clock = clock;
    this.eventIndex = new EventIndex(this.dataset.events);
    for (const c of dataset.countries) {
      this.countriesById.set(c.id, c);
      this.countriesByCode.set(c.code, c);
    }
    for (const e of this.dataset.events) {
      this.eventsById.set(e.id, e);
      this.countriesWithEvents.add(e.countryCode);
      for (const cls of e.classes) this.classesById.set(cls.id, { event: e, cls });
    }
  }

  routeKey(identity: string, id: string): string {
    return `${identity}\u0000${id}`;
  }

  /**
   * Stores a route as the newest, then evicts the oldest while more than `routeLimits` are kept: a CI server that
   * receives routes for days must not grow for ever. The route just stored is never evicted.
   */
  storeRoute(key: string, route: RouteRecord): void {
    const replaced = this.routes.get(key);
    if (replaced !== undefined && replaced !== route) dropData(replaced);
    this.routes.delete(key);
    this.routes.set(key, route);
    // Summed from the records, not kept beside them: what a route holds changes as its import goes on (route-import.ts)
    // and a test may empty `routes` directly; a sum over at most maxRoutes records costs little next to a POST.
    let bytes = this.routeBytes;
    for (const [oldest, evicted] of this.routes) {
      if (oldest === key) break;
      if (this.routes.size <= this.routeLimits.maxRoutes && bytes <= this.routeLimits.maxBytes) break;
      bytes -= heldBytes(evicted);
      this.routes.delete(oldest);
      // A parse still queued for it holds the record: its data goes now, not when the parser reaches it.
      dropData(evicted);
      this.evictedRoutes++;
    }
  }

  /** Bytes of route data and parsed points held now. */
  get routeBytes(): number {
    let bytes = 0;
    for (const route of this.routes.values()) bytes += heldBytes(route);
    return bytes;
  }

  nextRouteNumber(): number {
    return ++this.#routeCounter;
  }

  /** Ids the service generates when the client gives none: unique, opaque, never a client's 48-char id. */
  generateRouteId(): string {
    return `sim-${Date.now().toString(36)}-${(++this.#generatedIdCounter).toString(36)}-${randomBytes(6).toString('hex')}`;
  }

  /** Revokes a token; revoking a refresh token also ends the access tokens issued with it. */
  revoke(token: string): void {
    const record = this.tokens.get(token);
    if (!record) return;
    record.revoked = true;
    if (record.kind === 'refresh') {
      for (const t of this.tokens.values()) if (t.refreshToken === token) t.revoked = true;
    }
  }
}

export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** What a route holds now: its base64 until parsed, then its parsed points until the import settles, then nothing. */
function heldBytes(route: RouteRecord): number {
  return route.data?.length ?? (route.parsed?.ok ? route.parsed.points.byteLength : 0);
}

/** Lets go of what a route no longer stored holds, so that a parse job queued for it keeps no megabytes alive. */
function dropData(route: RouteRecord): void {
  route.data = undefined;
  delete route.parsed;
}
