// `sfd-sidecar injector`: serves the mutating admission webhook that adds the sidecar to pods, with
// the injection defaults of the settings (the same as `inject`), until SIGTERM.
import { readLimits } from '../../config/limits-config.js';
import { BUFFERED_BODY_DEFAULTS, SETTINGS } from '../../config/settings.js';
import { readInjectionOptions } from '../options.js';
import { startInjector } from '../webhook/start-injector.js';
import { readCertificateSettings } from './injector-certificates.js';
import { readPolicyFile } from './policy-file.js';
import { watchPolicyFile } from '../policy/policy-reloader.js';

/** The policy file is re-read this often as a backstop to watching it. */
const POLICY_RELOAD_INTERVAL_MS = 30_000;
/** A read of the policy file not done after this long is given up, so a volume that hangs stops no reload. */
const POLICY_STALLED_AFTER_MS = 5 * 60_000;
import { createLogger, describeError } from '../../observability/logger.js';
import { createMetrics } from '../../observability/metrics.js';
import type { RunningService } from '../../command/cli-io.js';
import { readerOf, type CommandSettings } from '../../command/command-settings.js';
import type { ServeDeps } from '../../command/cli-io.js';
import { INJECTOR_SETTINGS } from '../injector-settings.js';
import { POLICY_SETTINGS } from '../policy-settings.js';

export async function injectorCommand(settings: CommandSettings, deps: ServeDeps): Promise<RunningService> {
  const r = readerOf(settings, deps);
  const defaults = readInjectionOptions(r);
  const listen = r.value(INJECTOR_SETTINGS.injectorListen);
  const adminListen = r.value(SETTINGS.adminListen);
  const logLevel = r.value(SETTINGS.logLevel);
  const read = readLimits(r, SETTINGS.maxBodyBytes.default);
  // Two of the largest reviews with their answers: what the chart's memory limit leaves after the process
  // itself, with room for the connections of callers that stop reading.
  const limits = r.isSet(SETTINGS.maxBufferedBodyBytes)
    ? read
    : { ...read, maxBufferedBodyBytes: BUFFERED_BODY_DEFAULTS.injector };
  const shutdownTimeoutMs = r.value(SETTINGS.shutdownTimeoutMs);
  const openCertificates = readCertificateSettings(r, deps);
  const policyFile = readPolicyFile(r);
  r.assertValid();
  const logger = deps.logger ?? createLogger({ level: logLevel });
  for (const warning of [...settings.warnings, ...r.warnings])
    logger.warn('setting ignored or likely wrong', { warning });
  const tls = await openCertificates(logger);
  const policy =
    policyFile &&
    watchPolicyFile({
      ...policyFile,
      readFile: deps.readFileAsync,
      logger,
      intervalMs: POLICY_RELOAD_INTERVAL_MS,
      stalledAfterMs: POLICY_STALLED_AFTER_MS,
    });
  if (policyFile) logger.info('entitlement policy loaded', { entitlements: policyFile.policy.entitlements.length });
  else
    logger.warn('no entitlement policy is in force: any pod that asks may use any profile', {
      fix: `set ${POLICY_SETTINGS.policyFile.env} (the chart's policy.entitlements)`,
    });
  const metrics = createMetrics('injector');
  metrics.observeLogDrops(() => logger.droppedLines());
  const injector = await startInjector({
    listen,
    adminListen,
    defaults,
    tls,
    limits,
    logger,
    metrics,
    now: deps.now,
    ...(policy ? { policy: policy.current } : {}),
  });
  return {
    async stop(signal) {
      logger.info('shutting down', { signal });
      policy?.stop();
      await injector.close(shutdownTimeoutMs);
      logger.info('stopped');
      logger.flush();
    },
    flushLogs: () => logger.flush(),
    logFatal: (message, error) => logger.fatal(message, describeError(error)),
  };
}
