/**
 * Sorting by code units (the order `<` gives strings), the same on every machine: `localeCompare` depends on the
 * runtime's locale data, and files, indexes and tables this project writes must come out byte for byte alike.
 */
export function codeUnitOrder(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** `codeUnitOrder` of a field: `rows.sort(byField('key'))`. */
export function byField<K extends string>(field: K): (a: Record<K, string>, b: Record<K, string>) => number {
  return (a, b) => codeUnitOrder(a[field], b[field]);
}
