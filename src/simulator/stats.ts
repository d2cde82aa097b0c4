/** Request counts per endpoint and status, and faults injected: what benchmarks and CI assertions read. */
export interface StatsSnapshot {
  requests: number;
  byEndpoint: Record<string, Record<string, number>>;
  faults: Record<string, number>;
}

export class SimStats {
  #requests = 0;
  #byEndpoint = new Map<string, Map<string, number>>();
  #faults = new Map<string, number>();

  record(endpoint: string, status: number | string): void {
    this.#requests++;
    let byStatus = this.#byEndpoint.get(endpoint);
    if (!byStatus) this.#byEndpoint.set(endpoint, (byStatus = new Map<string, number>()));
    const key = String(status);
    byStatus.set(key, (byStatus.get(key) ?? 0) + 1);
  }

  fault(kind: string): void {
    this.#faults.set(kind, (this.#faults.get(kind) ?? 0) + 1);
  }

  /** Requests to one endpoint, whatever their outcome. */
  count(endpoint: string): number {
    let n = 0;
    for (const v of this.#byEndpoint.get(endpoint)?.values() ?? []) n += v;
    return n;
  }

  snapshot(): StatsSnapshot {
    return {
      requests: this.#requests,
      byEndpoint: Object.fromEntries([...this.#byEndpoint].map(([k, v]) => [k, Object.fromEntries(v)])),
      faults: Object.fromEntries(this.#faults),
    };
  }

  reset(): void {
    this.#requests = 0;
    this.#byEndpoint.clear();
    this.#faults.clear();
  }
}
