/**
 * PKCE (RFC 7636) and the `state` parameter of the authorization code flow. The contract requires PKCE (section 5.2);
 * only S256 is offered, because `plain` would send the verifier itself through the browser.
 */
import { createHash, randomBytes } from 'node:crypto';

export interface Pkce {
  /** The secret kept by the client until the token exchange: 64 characters of the base64url alphabet. */
  verifier: string;
  /** BASE64URL(SHA-256(verifier)), sent with the authorization request. */
  challenge: string;
  method: 'S256';
}

/**
 * A fresh verifier and its challenge. 48 random bytes give 64 base64url characters: inside RFC 7636's 43..128 and
 * its unreserved alphabet [A-Za-z0-9-._~], with 384 bits of entropy (the RFC asks for at least 256).
 */
export function createPkce(): Pkce {
  const verifier = randomBytes(48).toString('base64url');
  return { verifier, challenge: pkceChallenge(verifier), method: 'S256' };
}

/** The S256 challenge of a verifier. */
export function pkceChallenge(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

/** An unguessable `state`, binding the browser's answer to the request this process made (CSRF, RFC 6749 10.12). */
export function randomState(): string {
  return randomBytes(24).toString('base64url');
}
