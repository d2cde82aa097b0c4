/** Dropping `undefined` values, so that optional fields are absent rather than present-but-undefined. */
export type Compact<T> = { [K in keyof T as undefined extends T[K] ? never : K]: T[K] } & {
  [K in keyof T as undefined extends T[K] ? K : never]?: Exclude<T[K], undefined>;
};

/** A copy of `o` without its undefined values (what `exactOptionalPropertyTypes` wants for optional fields). */
export function compact<T extends object>(o: T): Compact<T> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) if (v !== undefined) out[k] = v;
  return out as Compact<T>;
}
