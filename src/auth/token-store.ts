/**
 * Where OAuth tokens live between runs. The file store is the CLI's: one JSON file readable by its owner only,
 * replaced atomically so that a crash or a full disk never leaves half a token file behind (a torn file would log the
 * user out, or worse, be read as someone else's). A token file others may read or write, or one in a folder they may
 * write, is refused, as ssh refuses a private key they may read: its tokens may already be someone else's, and using
 * them silently would hide that. Several processes (cron jobs, a `login` in another terminal) share one file: they
 * change it only under a lock the operating system releases when its holder dies (`exclusive`).
 */
import type { Stats } from 'node:fs';
import { lstat, mkdir, rm, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod';
import { trimSlash } from '../config.js';
import { lockFile, type FileLock } from '../core/file-lock.js';
import { errnoCode, writeFileAtomic } from '../core/files.js';
import { issuesFromZod } from '../core/issues.js';
import { readJsonInput } from '../core/json-input.js';
import { InputError, ValidationError, type Hint } from '../errors.js';
import { checkPrivateFolders, realFilePath } from './private-path.js';

export interface OAuthTokens {
  accessToken: string;
  refreshToken?: string;
  /** When the access token expires, epoch ms (by the clock of the strategy that obtained it). */
  expiresAt: number;
  /** What the service granted, which may be less than what was asked for. */
  scopes: string[];
  /**
   * The client id and addresses the tokens were issued for. Absent in token files written before this was kept;
   * recorded again at the next login or refresh.
   */
  issuedFor?: TokenIssuer;
}

/** Whom tokens belong to: they are only good with this client id, at this authorization server. */
export interface TokenIssuer {
  clientId: string;
  authUrl: string;
  baseUrl: string;
  viewerUrl?: string;
}

/** One way the client id or an address in use differs from the ones the stored tokens were issued for. */
export interface IssuerDifference {
  field: keyof TokenIssuer;
  issued: string;
  now: string;
}

/**
 * Which of `now` differ from the issuer the tokens remember (addresses compared as URLs, a trailing slash ignored).
 * Empty when they agree, when `issued` is unknown (an older token file), or for a field `now` leaves out: a front end
 * warns with these, because tokens of one client or server sent to another are refused, or worse, shown to it.
 */
export function issuerDifferences(issued: TokenIssuer | undefined, now: Partial<TokenIssuer>): IssuerDifference[] {
  if (issued === undefined) return [];
  const out: IssuerDifference[] = [];
  for (const field of ['clientId', 'authUrl', 'baseUrl', 'viewerUrl'] as const) {
    const a = issued[field];
    const b = now[field];
    if (a === undefined || b === undefined) continue;
    const same = field === 'clientId' ? a === b : sameAddress(a, b);
    if (!same) out.push({ field, issued: a, now: b });
  }
  return out;
}

function sameAddress(a: string, b: string): boolean {
  const norm = (u: string): string => {
    try {
      return trimSlash(new URL(u).href);
    } catch {
      return trimSlash(u.trim());
    }
  };
  return norm(a) === norm(b);
}

export interface TokenStore {
  /** The saved tokens, or undefined when there are none. */
  load(): Promise<OAuthTokens | undefined>;
  save(tokens: OAuthTokens): Promise<void>;
  /** Forgets the tokens; no error when there are none. */
  clear(): Promise<void>;
  /**
   * Runs `work` while nobody else sharing these tokens (another process on the same token file) can change them, and
   * hands it the store to read and change meanwhile. The OAuth strategy renews tokens inside it: it reads what is
   * stored now, renews only when nobody has done so meanwhile, and never clears or overwrites tokens other than the
   * ones it read. Optional: without it, a store is read, compared and written with no lock, and two processes may
   * then both renew one refresh token (a server that rotates refresh tokens refuses the second).
   */
  exclusive?<T>(
    work: (store: LockedTokenStore) => Promise<T>,
    options?: { signal?: AbortSignal | undefined },
  ): Promise<T>;
}

/** The tokens of a store while `TokenStore.exclusive` holds it: read and changed with nobody else changing them. */
export type LockedTokenStore = Pick<TokenStore, 'load' | 'save' | 'clear'>;

/** Tokens for this process only: tests, and `login --simulator`, whose tokens die with the embedded simulator. */
export class MemoryTokenStore implements TokenStore {
  #tokens: OAuthTokens | undefined;
  #queue: Promise<unknown> = Promise.resolve();

  constructor(initial?: OAuthTokens) {
    this.#tokens = initial === undefined ? undefined : copy(initial);
  }

  load(): Promise<OAuthTokens | undefined> {
    // Copies both ways: a caller mutating what it got must not change what is stored.
    return Promise.resolve(this.#tokens === undefined ? undefined : copy(this.#tokens));
  }

  save(tokens: OAuthTokens): Promise<void> {
    this.#tokens = copy(tokens);
    return Promise.resolve();
  }

  clear(): Promise<void> {
    this.#tokens = undefined;
    return Promise.resolve();
  }

  /** One `work` at a time, in the order asked (strategies sharing this store in one process). */
  exclusive<T>(work: (store: LockedTokenStore) => Promise<T>): Promise<T> {
    const run = this.#queue.then(() => work(this));
    this.#queue = run.catch(() => undefined);
    return run;
  }
}

/** The file's shape. `version` tells a token file of ours from any other JSON that happens to be at the path. */
// `issuedFor` is optional and the version stays 1: files written before it load as they are, and older versions of
// this library reading a newer file drop the field (zod strips unknown keys) instead of refusing the file.
const tokenFileSchema = z.object({
  version: z.literal(1),
  accessToken: z.string().min(1),
  refreshToken: z.string().min(1).optional(),
  expiresAt: z.number().finite(),
  scopes: z.array(z.string()),
  issuedFor: z
    .object({
      clientId: z.string().min(1),
      authUrl: z.string().min(1),
      baseUrl: z.string().min(1),
      viewerUrl: z.string().min(1).optional(),
    })
    .optional(),
});

/** A token file is a few hundred bytes; anything far larger is not ours and is not read into memory. */
const MAX_FILE_BYTES = 1024 * 1024;

const LOGIN_AGAIN: Hint = { code: 'login', text: 'Log in again: a new login replaces the file.' };
/** What to do about a token file that is (or links to) another user's, on reading it and before writing it. */
const NOT_YOURS_HINT = 'Remove it and log in again, or give your own file with --token-file.';
/** Default of `lockTimeoutMs`: longer than a refresh may take with the transport's retries and timeouts. */
export const DEFAULT_TOKEN_LOCK_TIMEOUT_MS = 5 * 60_000;

export interface FileTokenStoreOptions {
  /**
   * How long to wait while another process holds the token file's lock (renewing the login, or writing a new one)
   * before giving up with an `InputError` (reason `locked`). Default 5 minutes.
   */
  lockTimeoutMs?: number;
}

export class FileTokenStore implements TokenStore {
  readonly path: string;
  readonly #lockTimeoutMs: number;

  constructor(path: string, options: FileTokenStoreOptions = {}) {
    if (path.trim() === '') throw new TypeError('FileTokenStore needs a file path');
    const timeout = options.lockTimeoutMs ?? DEFAULT_TOKEN_LOCK_TIMEOUT_MS;
    if (!(Number.isFinite(timeout) && timeout >= 0)) throw new TypeError('lockTimeoutMs must be a non-negative number');
    this.path = path;
    this.#lockTimeoutMs = timeout;
  }

  /**
   * The tokens, or undefined when there is no file. Throws `InputError`: `not_a_file` (a directory, named pipe or
   * device: never waited on), `insecure_permissions` (group or others may read or write it: `chmod 600` fixes it; or a
   * folder it is in belongs to another user or may be written by others: `chmod go-w FOLDER`), `too_large` (over
   * 1 MiB), `unreadable`, `not_json` or `not_token_file`.
   */
  async load(): Promise<OAuthTokens | undefined> {
    let value: unknown;
    let stats: Stats | undefined;
    try {
      value = await readJsonInput(this.path, {
        what: 'the token file',
        maxBytes: MAX_FILE_BYTES,
        secret: true,
        hint: 'Check its permissions, or remove it and log in again.',
        // The status of the file read, not of a path that may change: the permissions are judged below.
        checkStats: (s) => {
          stats = s;
        },
      });
    } catch (err) {
      if (!(err instanceof InputError)) throw err;
      if (err.reason === 'unreadable' && errnoCode(err.cause) === 'ENOENT') return undefined;
      if (err.reason === 'not_json' || err.reason === 'bad_encoding') {
        throw new InputError(this.path, 'not_json', 'is not a token file (not JSON); it may be corrupt.', {
          hint: LOGIN_AGAIN,
        });
      }
      throw err;
    }
    const parsed = tokenFileSchema.safeParse(value);
    if (!parsed.success) {
      // Paths only: an issue may quote the value it refused, and the values are secrets.
      const issues = issuesFromZod(parsed.error, { valueFree: true, rootPath: '(top level)' });
      const fields = [...new Set(issues.map((i) => i.path))];
      throw new InputError(
        this.path,
        'not_token_file',
        `is not a livelox-bridge token file, or it is corrupt (missing or wrong: ${fields.join(', ')}).`,
        { hint: LOGIN_AGAIN },
      );
    }
    // After the content: a file holding no usable tokens is not used either way, and says what is wrong with it.
    if (stats !== undefined) this.#checkPermissions(stats);
    await checkPrivateFolders(this.path, await realFilePath(this.path), 'the token file');
    const t = parsed.data;
    return {
      accessToken: t.accessToken,
      ...(t.refreshToken === undefined ? {} : { refreshToken: t.refreshToken }),
      expiresAt: t.expiresAt,
      scopes: t.scopes,
      ...(t.issuedFor === undefined ? {} : { issuedFor: copyIssuer(t.issuedFor) }),
    };
  }

  /**
   * Refuses a file group or others may read or write (ssh's rule for private keys). Windows' modes say nothing of
   * this: its ACLs are not looked at, and the check is left out there.
   */
  #checkPermissions(s: Stats): void {
    if (process.platform === 'win32') return;
    // Another user's file (a symlink planted towards it, a file left in a shared folder): its tokens may be theirs, and
    // they may read what is written there. ssh refuses such files the same way.
    const uid = process.getuid?.();
    if (uid !== undefined && s.uid !== uid) {
      throw new InputError(
        this.path,
        'insecure_permissions',
        `the token file belongs to another user (uid ${s.uid}); it is not used.`,
        { hint: NOT_YOURS_HINT },
      );
    }
    if ((s.mode & 0o077) === 0) return;
    const mode = (s.mode & 0o777).toString(8).padStart(4, '0');
    throw new InputError(
      this.path,
      'insecure_permissions',
      `the token file's permissions ${mode} let other users read or change it; it is not used.`,
      { hint: `Make it private with: chmod 600 ${this.path} (or log in again, which writes it so).` },
    );
  }

  /**
   * Replaces the file atomically (`writeFileAtomic`): readers see the old file or the new one, never a mix, and the
   * new file is 0600 whatever the old one was, because it is a new inode created with that mode: a save (a login, a
   * refresh) never writes tokens into a file others may read. A symbolic link is followed and its target replaced; a
   * directory, named pipe or device is refused, and so is a folder others may write (`insecure_permissions`). Taken
   * under the file's lock, so that it never lands between another process's reading and replacing of the file.
   */
  async save(tokens: OAuthTokens): Promise<void> {
    await this.exclusive((store) => store.save(tokens));
  }

  /**
   * Runs `work` holding the token file's lock: a write transaction on an empty SQLite file beside the token file's
   * real path (`tokens.json.lock`, never removed), which the operating system releases when this process ends
   * however it ends (core/file-lock.ts says why, and what it does not cover). Missing folders are made 0700 first;
   * folders others may write are refused. Waits up to `lockTimeoutMs` for another holder, then throws `InputError`
   * (reason `locked`); the lock is released when `work` settles.
   */
  async exclusive<T>(
    work: (store: LockedTokenStore) => Promise<T>,
    options: { signal?: AbortSignal | undefined } = {},
  ): Promise<T> {
    let real: string;
    try {
      // 0700: the directory's listing shows when the user logged in; nobody else needs it. Existing directories
      // keep their mode: the caller may have chosen a shared one for the file (which is then refused below).
      await mkdir(dirname(this.path), { recursive: true, mode: 0o700 });
      real = await realFilePath(this.path);
    } catch (err) {
      throw this.#writeFailed(err);
    }
    await checkPrivateFolders(this.path, real, 'the token file');
    const lock = await this.#lock(`${real}.lock`, options.signal);
    try {
      return await work({
        load: () => this.load(),
        save: (tokens) => this.#write(tokens),
        clear: () => this.#remove(),
      });
    } finally {
      lock.release();
    }
  }

  async #lock(lockPath: string, signal: AbortSignal | undefined): Promise<FileLock> {
    let lock: FileLock | undefined;
    try {
      lock = await lockFile(lockPath, { timeoutMs: this.#lockTimeoutMs, signal });
    } catch (err) {
      if (signal?.aborted) throw err;
      // A folder this user may not write (or a full or read-only disk): the tokens cannot be saved there at all.
      if (['EACCES', 'EPERM', 'EROFS', 'ENOSPC'].includes(errnoCode(err) ?? '')) throw this.#writeFailed(err);
      const why = errnoCode(err) ?? (err instanceof Error ? err.message : 'error');
      throw new InputError(this.path, 'lock_failed', `cannot take the token file's lock ${lockPath} (${why}).`, {
        cause: err,
        hint: 'Check its permissions; when no livelox-bridge process runs, the lock file may be removed.',
      });
    }
    if (lock === undefined) {
      const seconds = Math.round(this.#lockTimeoutMs / 1000);
      throw new InputError(
        this.path,
        'locked',
        `another process has held the token file's lock (${lockPath}) for ${seconds} s: it is renewing the login or writing a new one, or it is stopped; nothing was changed.`,
        { hint: 'Try again when that process has finished.' },
      );
    }
    return lock;
  }

  async #write(tokens: OAuthTokens): Promise<void> {
    // Refuse to write what load() would refuse to read: a broken file is worse than a failed save.
    const checked = tokenFileSchema.safeParse({ version: 1, ...tokens });
    if (!checked.success) {
      throw new ValidationError('Tokens to save', issuesFromZod(checked.error, { valueFree: true }));
    }
    const text = `${JSON.stringify(checked.data, null, 2)}\n`;
    try {
      await this.#checkOwnTarget();
      await writeFileAtomic(this.path, text, { mode: 0o600 });
    } catch (err) {
      throw this.#writeFailed(err);
    }
  }

  #writeFailed(err: unknown): InputError {
    const why = err instanceof InputError ? `it ${err.detail}` : (errnoCode(err) ?? 'error');
    return new InputError(this.path, 'write_failed', `cannot save the tokens (${why}).`, {
      cause: err,
      hint: { code: 'token_file', text: 'Check that the directory is writable, or keep the tokens in another file.' },
    });
  }

  /**
   * Tokens are written only into a file of this user's: a token file that is (or links to) another user's file is
   * refused before anything is written, so that a link planted towards a file its planter owns never receives them.
   */
  async #checkOwnTarget(): Promise<void> {
    const uid = process.getuid?.();
    if (uid === undefined) return;
    for (const s of [await lstat(this.path).catch(() => undefined), await stat(this.path).catch(() => undefined)]) {
      if (s !== undefined && s.uid !== uid) {
        throw new InputError(
          this.path,
          'insecure_permissions',
          `belongs to another user (uid ${s.uid}) or links to their file.`,
          { hint: NOT_YOURS_HINT },
        );
      }
    }
  }

  /**
   * Removes the file, under its lock (no folder check: removing hands nothing to anyone). A file that is not there
   * is no error, and then nothing is locked or created.
   */
  async clear(): Promise<void> {
    let real: string;
    try {
      await lstat(this.path);
      real = await realFilePath(this.path);
    } catch (err) {
      if (errnoCode(err) === 'ENOENT') return;
      throw err;
    }
    const lock = await this.#lock(`${real}.lock`, undefined);
    try {
      await this.#remove();
    } finally {
      lock.release();
    }
  }

  async #remove(): Promise<void> {
    await rm(this.path, { force: true });
  }
}

function copy(tokens: OAuthTokens): OAuthTokens {
  const { issuedFor, ...rest } = tokens;
  return {
    ...rest,
    scopes: [...tokens.scopes],
    ...(issuedFor === undefined ? {} : { issuedFor: copyIssuer(issuedFor) }),
  };
}

/** A copy with only the known fields, `viewerUrl` left out when absent (`exactOptionalPropertyTypes`). */
export function copyIssuer(i: {
  clientId: string;
  authUrl: string;
  baseUrl: string;
  viewerUrl?: string | undefined;
}): TokenIssuer {
  return {
    clientId: i.clientId,
    authUrl: i.authUrl,
    baseUrl: i.baseUrl,
    ...(i.viewerUrl === undefined ? {} : { viewerUrl: i.viewerUrl }),
  };
}
