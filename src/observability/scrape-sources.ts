// What the scrape-time metrics are read from: counts the rest of the process owns (requests in flight,
// buffered bytes, connections, keys), connected after the metrics are made. Until one is connected, its
// metric reads as nothing is there.

/** The upstream connections now, and the requests waiting for one; read at scrape time. */
export interface UpstreamConnectionCounts {
  /** Carrying a request. */
  readonly active: number;
  /** Kept alive for the next request. */
  readonly idle: number;
  /** Requests waiting for a connection: all SFD_UPSTREAM_MAX_SOCKETS are active. */
  readonly waiting: number;
}

/** What the key metrics are read from at scrape time. */
export interface KeyMetricsSource {
  /**
   * Each key of each profile the sidecar signs with (never the rest of a shared key store): when it
   * stops, and whether it is the one in use now.
   */
  keys(): { profile: string; accessKeyId: string; notAfterMs: number | null; current: boolean }[];
  lastSuccessMs(): number | null;
  ready(): boolean;
}

/** The sources connected so far; each `observe*` of the metrics replaces one. */
export interface ScrapeSources {
  keys: KeyMetricsSource | null;
  inflight: () => number;
  bufferedBodyBytes: () => number;
  upstream: () => UpstreamConnectionCounts;
  logDrops: () => number;
  readonly connections: Map<string, () => number>;
  certificateExpiry: () => number | null;
}

export function emptyScrapeSources(): ScrapeSources {
  return {
    keys: null,
    inflight: () => 0,
    bufferedBodyBytes: () => 0,
    upstream: () => ({ active: 0, idle: 0, waiting: 0 }),
    logDrops: () => 0,
    connections: new Map(),
    certificateExpiry: () => null,
  };
}
