// The names of the metrics by type, from METRIC_DEFINITIONS, and which of them are per-request: those
// are updated on every request, so kept in bound series (bound-series.ts) rather than prom-client's
// classes.
import type { METRIC_DEFINITIONS } from './metric-definitions.js';

export type Definition = (typeof METRIC_DEFINITIONS)[number];

export const PER_REQUEST = [
  'sfd_requests_total',
  'sfd_request_duration_seconds',
  'sfd_upstream_duration_seconds',
] as const;
export type PerRequestName = (typeof PER_REQUEST)[number];

/** The names of one type of metric, the per-request ones left out. */
export type NameOf<T extends Definition['type']> = Exclude<Extract<Definition, { type: T }>['name'], PerRequestName>;

export function isPerRequest(name: string): name is PerRequestName {
  return (PER_REQUEST as readonly string[]).includes(name);
}
