// Reconciles the injector's own certificates on a timer, and serves each new pair a reconcile brings.
// A reconcile that fails keeps the pair in use; the API server still trusts it until it expires.
import type { Logger } from '../../observability/logger.js';
import { deadlineAfter, reportChanges, startLastGoodReload, StalledRead } from '../../reload/last-good-reload.js';
import { everyInterval } from '../../reload/watch-directories.js';
import type { ManagedCertificates } from './managed-certificates.js';
import type { TlsPair } from './tls-pair.js';

type Reconciled = Awaited<ReturnType<ManagedCertificates['reconcile']>>;

/** Reconciles every `intervalMs` and hands a changed pair to `use`; returns a stop function. */
export function watchManagedCertificates(
  managed: ManagedCertificates,
  options: {
    logger: Logger;
    use: (pair: TlsPair) => void;
    intervalMs: number;
    /** A reconcile not done after this long is given up until the next tick. */
    stalledAfterMs: number;
    current: TlsPair;
  },
): () => void {
  const { logger, current } = options;
  const reload = startLastGoodReload<Reconciled, TlsPair, string>({
    initial: { input: { ok: true, pair: current }, value: current },
    read: () => managed.reconcile(),
    parse: (result) => (result.ok ? { ok: true, value: result.pair } : { ok: false, failure: result.problem }),
    sameInput: (a, b) => a.ok && b.ok && a.pair.cert === b.pair.cert && a.pair.key === b.pair.key,
    failureOf: (error) => (error instanceof StalledRead ? `the reconcile ${error.message}` : String(error)),
    triggers: (read) => everyInterval(read, options.intervalMs),
    deadline: deadlineAfter(options.stalledAfterMs),
    settled: reportChanges({
      loaded: (pair) => {
        options.use(pair);
        logger.info('webhook certificate reloaded', { validTo: pair.validTo });
      },
      rejected: (problem, inUse) =>
        logger.warn('webhook certificates not reconciled; serving the one in use', {
          problem,
          validTo: inUse.validTo,
        }),
    }),
  });
  return reload.stop;
}
