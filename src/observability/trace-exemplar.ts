// The one exemplar the per-request metrics carry: `trace_id`, the `x-sfd-trace-id` of a recent answer,
// which is what the vendor's support asks for. Only a value of a trace id's form becomes one, so nothing a
// peer fills in (a path, a header, a secret) can reach a scrape through it.

/** The exemplar's one label. */
export const TRACE_ID_LABEL = 'trace_id';

/** The longest trace id kept: with its label name, well within the 128 characters OpenMetrics allows. */
export const TRACE_ID_MAX_LENGTH = 64;

/** Hex digits, as the gateway's trace ids, the sidecar's own and W3C's are; at least a 64-bit id. */
const TRACE_ID = new RegExp(`^[0-9a-fA-F]{16,${TRACE_ID_MAX_LENGTH}}$`);

declare const checked: unique symbol;
/** A string checked to have a trace id's form: the only kind an exemplar takes. */
export type TraceId = string & { readonly [checked]: true };

/** The value as a trace id, or undefined when it has not a trace id's form (or is absent). */
export function traceIdOf(value: string | undefined): TraceId | undefined {
  return value !== undefined && TRACE_ID.test(value) ? (value as TraceId) : undefined;
}
