// What the benchmark measures of one row in one round, and the rows it can have.
import type { ErrorKinds } from './round-problems.js';

/**
 * The Node proxies: the sidecar, `plain-node` and `stack` (hono's adapter and http-proxy with nothing
 * else, bench/stack-proxy.ts) on every Node line of the run; on the run's leading line, with
 * `--operations FILE` the sidecar signing from that key store, whose profile limits its operations.
 */
export type NodeProxy = 'sidecar' | 'stack' | 'plain-node' | 'sidecar+operations';
/** `direct` and `nginx`, and each Node proxy on one Node line (its major version): `sidecar@24`. */
export type RowName = 'direct' | 'nginx' | `${NodeProxy}@${number}`;

export const rowOf = (proxy: NodeProxy, line: number): RowName => `${proxy}@${line}`;

export interface Measurement {
  requests: number;
  rps: number;
  p50Ms: number;
  p99Ms: number;
  p999Ms: number;
  errors: number;
  errorKinds: ErrorKinds;
  cpuUsPerRequest: number | null;
  rssMb: number | null;
  /**
   * The `Anonymous:` field of /proc/PID/smaps_rollup at the end of the round: the process's private memory
   * without the Node binary's file pages, which RSS counts for a process alone on its machine.
   */
  anonymousMb: number | null;
  /** Upstream connections the proxy opened during the round (null for the direct row). */
  newUpstreamSockets: number | null;
  /** The most upstream connections the proxy held open at once during the round (null for the direct row). */
  peakUpstreamSockets: number | null;
}

/** Every round's measurement, by scenario name, then by row. */
export type Rounds = Record<string, Partial<Record<RowName, Measurement[]>>>;

export const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
};
