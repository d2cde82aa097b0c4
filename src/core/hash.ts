/**
 * A content hash that does not depend on key order: two answers that say the same thing hash the same, whichever
 * order the service (or a portal) wrote their fields in. Used to tell a changed record from a repeated one.
 */
import { createHash } from 'node:crypto';

/** JSON with object keys sorted at every level (arrays keep their order: it is part of the content). */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
    const sorted: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) sorted[k] = (v as Record<string, unknown>)[k];
    return sorted;
  });
}

/** SHA-256 of the canonical JSON, hex, 32 characters (128 bits: collisions are not a concern at our sizes). */
export function contentHash(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('hex').slice(0, 32);
}
