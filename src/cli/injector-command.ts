// `sfd-sidecar injector`: serves the mutating admission webhook that adds the sidecar to pods, with
// the injection defaults of the settings (the same as `inject`), until SIGTERM.
import { readLimits } from '../config/limits-config.js';
import { LOG_LEVELS } from '../config/load-config.js';
import { parseListen, parseOneOf } from '../config/parsers.js';
import { SettingReader, type SettingValues } from '../config/setting-reader.js';
import { SETTINGS } from '../config/settings.js';
import { ConfigError } from '../config/config-error.js';
import { readInjectionOptions } from '../inject/read-injection-options.js';
import { startInjector } from '../injector/start-injector.js';
import { loadTlsPair } from '../injector/tls-files.js';
import { createLogger, describeError } from '../observability/logger.js';
import { createMetrics } from '../observability/metrics.js';
import type { RunningService } from './cli-io.js';
import type { ServeDeps } from './serve-command.js';

/** The certificate files are re-read this often as a backstop to watching them. */
const TLS_RELOAD_INTERVAL_MS = 60_000;

export async function injectorCommand(values: SettingValues, deps: ServeDeps): Promise<RunningService> {
  const r = new SettingReader(values, deps);
  const defaults = readInjectionOptions(r);
  const listen = r.read('injectorListen', parseListen, SETTINGS.injectorListen.defaultText);
  const adminListen = r.read('adminListen', parseListen, SETTINGS.adminListen.defaultText);
  const logLevel = r.read('logLevel', parseOneOf(LOG_LEVELS), SETTINGS.logLevel.defaultText);
  const limits = readLimits(r, Number(SETTINGS.maxBodyBytes.defaultText));
  const certFile = r.raw('tlsCertFile')?.trim();
  const keyFile = r.raw('tlsKeyFile')?.trim();
  if (certFile === undefined) r.problems.push(`${SETTINGS.tlsCertFile.env}: required, the webhook's certificate (PEM); the API server speaks to webhooks over HTTPS only`);
  if (keyFile === undefined) r.problems.push(`${SETTINGS.tlsKeyFile.env}: required, the webhook's private key (PEM)`);
  r.assertValid();
  const files = { certFile: certFile!, keyFile: keyFile!, readFile: deps.readFileAsync };
  const loaded = await loadTlsPair(files);
  if (!loaded.ok) throw new ConfigError([`${SETTINGS.tlsCertFile.env}/${SETTINGS.tlsKeyFile.env}: ${loaded.problem}`]);
  const logger = deps.logger ?? createLogger({ level: logLevel! });
  const metrics = createMetrics('injector');
  metrics.observeLogDrops(() => logger.droppedLines());
  const injector = await startInjector({
    listen: listen!,
    adminListen: adminListen!,
    defaults,
    tls: { ...files, initial: loaded.pair, reloadIntervalMs: TLS_RELOAD_INTERVAL_MS },
    limits,
    logger,
    metrics,
    now: deps.now,
  });
  return {
    async stop() {
      logger.info('shutting down');
      await injector.close(Number(SETTINGS.shutdownTimeoutMs.defaultText));
      logger.info('stopped');
      logger.flush();
    },
    flushLogs: () => logger.flush(),
    logCrash: (error) => logger.fatal('crashed', describeError(error)),
  };
}
