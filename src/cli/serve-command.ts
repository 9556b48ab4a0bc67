// `sfd-sidecar serve` (the default): load the configuration, load the keys (one key, or a watched key
// store), start the sidecar; with nothing configured outside production, start the built-in emulator
// with its demo key in front of it.
import { setTimeout as sleep } from 'node:timers/promises';
import { loadConfig, type Config } from '../config/load-config.js';
import { isLoopback } from '../config/no-proxy.js';
import { parseUpstreamUrl } from '../config/parsers.js';
import { DEMO_ACCESS_KEY_ID, DEMO_ACCESS_KEY_SECRET } from '../emulator/seed-data.js';
import type { RunningEmulator } from '../emulator/start-emulator.js';
import { createKeyRing, type KeyRing } from '../keys/key-ring.js';
import { singleKeyStore } from '../keys/key-store.js';
import type { KeyStoreReloader } from '../keys/key-store-reloader.js';
import { signableProfiles } from '../keys/profile-resolver.js';
import { createLogger, describeError, type Logger } from '../observability/logger.js';
import { createMetrics, type Metrics } from '../observability/metrics.js';
import { formatAddress, formatHostPort } from '../server/listen.js';
import { startSidecar, type SidecarOptions } from '../sidecar.js';
import { createAccessKey } from '../signing/access-key.js';
import { createNonceSource } from '../signing/nonce.js';
import type { RunningService, ServeDeps } from '../command/cli-io.js';
import type { CommandSettings } from '../command/command-settings.js';
import { SETTINGS } from '../config/settings.js';
import { SERVE_CONFIG_PARTS } from './serve-config-parts.js';
import { unknownSettingNames, type UnknownSettingName } from '../config/unknown-settings.js';
import { SETTING_NAMES } from '../settings/all-settings.js';
import { wrapWords } from '../text/wrap-words.js';

/** What `serve` runs on: the core's settings and its features'. */
type ServeConfig = ReturnType<typeof loadServeConfig>;

const loadServeConfig = (settings: CommandSettings, deps: ServeDeps) =>
  loadConfig(settings.values, {
    readFile: deps.readFile,
    production: deps.production,
    sources: settings.sources,
    parts: SERVE_CONFIG_PARTS,
  });

export async function serveCommand(settings: CommandSettings, deps: ServeDeps): Promise<RunningService> {
  const config = loadServeConfig(settings, deps);
  const logger = deps.logger ?? createLogger({ level: config.logLevel });
  warnAboutSettings(settings, config, logger);
  // The emulator (and zod, which its notification routes use) is loaded only for the demo: resident
  // memory a configured sidecar does not need.
  const emulator = config.demo
    ? await (await import('../emulator/start-emulator.js')).startEmulator({ listen: { host: '127.0.0.1', port: 0 } })
    : undefined;
  const metrics = createMetrics();
  metrics.observeLogDrops(() => logger.droppedLines());
  const { ring, reloader } = await loadKeys(config, deps, logger, metrics);
  try {
    const sidecar = await startSidecar(sidecarOptionsOf(config, { ring, logger, metrics, deps, emulator }));
    if (emulator)
      deps.stderr(
        demoBanner(emulator.url, formatAddress(sidecar.proxyAddress), unknownSettingNames(settings, SETTING_NAMES)),
      );
    const relay = await startRelay(config, { logger, metrics, deps }).catch(async (error: unknown) => {
      await sidecar.close(0);
      throw error;
    });
    return {
      async stop(signal) {
        logger.info('shutting down', { signal, delayMs: config.shutdownDelayMs, drainMs: config.shutdownTimeoutMs });
        // The application may get the same SIGTERM (a classic sidecar) and still call out while it stops:
        // every listener goes on serving, new connections included, for the delay (only /readyz changes).
        sidecar.announceShutdown();
        if (config.shutdownDelayMs > 0) await sleep(config.shutdownDelayMs);
        logger.info('draining', { drainMs: config.shutdownTimeoutMs });
        reloader?.stop();
        await Promise.all([sidecar.close(config.shutdownTimeoutMs), relay?.close(config.shutdownTimeoutMs)]);
        await emulator?.close();
        logger.info('stopped');
        logger.flush();
      },
      reload() {
        void reloader?.reload('SIGHUP');
      },
      flushLogs: () => logger.flush(),
      logFatal: (message, error) => logger.fatal(message, describeError(error)),
    };
  } catch (error) {
    reloader?.stop();
    await emulator?.close();
    throw error;
  }
}

/** The sidecar's parts from the configuration: the emulator stands in for the gateway in the demo. */
function sidecarOptionsOf(
  config: Config,
  parts: {
    ring: KeyRing;
    logger: Logger;
    metrics: Metrics;
    deps: ServeDeps;
    emulator: RunningEmulator | undefined;
  },
): SidecarOptions {
  return {
    defaultUpstream: parts.emulator ? demoUpstream(parts.emulator) : config.upstream,
    listen: config.listen,
    adminListen: config.adminListen,
    signing: config.signing,
    maxBodyBytes: config.maxBodyBytes,
    upstreamTimeoutMs: config.upstreamTimeoutMs,
    upstreamCa: config.upstreamCa,
    egressProxy: config.egressProxy,
    ring: parts.ring,
    defaultProfile: config.profile,
    profileHeader: config.profileHeader,
    allowedProfiles: new Set(config.allowedProfiles),
    operations: config.operations,
    logger: parts.logger,
    requestLog: config.requestLog,
    metrics: parts.metrics,
    now: parts.deps.now,
    nextNonce: createNonceSource(),
    limits: config.limits,
  };
}

/** The notification relay when configured; its code is loaded only then. */
async function startRelay(
  config: ServeConfig,
  parts: { logger: Logger; metrics: Metrics; deps: ServeDeps },
): Promise<{ close(drainMs: number): Promise<void> } | null> {
  if (!config.notify) return null;
  const { startNotifyRelay } = await import('../notify/start-notify-relay.js');
  return startNotifyRelay(config.notify, {
    logger: parts.logger,
    metrics: parts.metrics,
    now: parts.deps.now,
    callerLimits: config.limits,
  });
}

/** Settings that are ignored, likely wrong, or set aside, and a signing listener others can reach. */
function warnAboutSettings(settings: CommandSettings, config: Config, logger: Logger): void {
  for (const warning of [...settings.warnings, ...config.warnings])
    logger.warn('setting ignored or likely wrong', { warning });
  if (config.egressProxyIgnored)
    logger.warn("the pod's proxy setting is set aside", { reason: config.egressProxyIgnored });
  // Threat model: whoever reaches the signing listener spends the key. Allowed (a setting may mean it),
  // never quietly.
  if (!isLoopback(config.listen.host)) {
    logger.warn('the signing listener is not on loopback', {
      listen: formatHostPort(config.listen.host, config.listen.port),
      fix: `set ${SETTINGS.listen.env} to 127.0.0.1:PORT or [::1]:PORT: whoever reaches this port signs with the key`,
    });
  }
}

async function loadKeys(
  config: Config,
  deps: ServeDeps,
  logger: Logger,
  metrics: Metrics,
): Promise<{ ring: KeyRing; reloader?: KeyStoreReloader }> {
  const source = config.keySource;
  if (source.kind === 'demo')
    return {
      ring: createKeyRing(
        singleKeyStore(config.profile, createAccessKey(DEMO_ACCESS_KEY_ID, DEMO_ACCESS_KEY_SECRET)),
        deps.now(),
      ),
    };
  if (source.kind === 'single') return { ring: createKeyRing(singleKeyStore(config.profile, source.key), deps.now()) };
  // The key store's parsers (zod, yaml) load only when a key store is configured.
  const { createKeyStoreReloader } = await import('../keys/key-store-reloader.js');
  const ring = createKeyRing(null, null);
  ring.onChange((result) => metrics.counters.sfd_keystore_reloads_total.inc({ result }));
  const reloader = createKeyStoreReloader({
    path: source.path,
    ring,
    logger,
    now: deps.now,
    readFile: deps.readFileAsync,
    debounceMs: source.debounceMs,
    intervalMs: source.reloadIntervalMs,
    expiryWarningDays: config.keyExpiryWarningDays,
    profiles: signableProfiles({
      defaultProfile: config.profile,
      header: config.profileHeader,
      allowed: new Set(config.allowedProfiles),
    }),
  });
  await reloader.reload('start');
  reloader.start();
  return { ring, reloader };
}

function demoUpstream(emulator: RunningEmulator) {
  const parsed = parseUpstreamUrl(emulator.url);
  if (!parsed.ok) throw new Error(`the emulator's URL ${emulator.url} is not usable`);
  return parsed.value;
}

/**
 * What the demo is, said first; when the only settings given are names that are no setting (a typo of
 * SFD_UPSTREAM_URL), that nothing is configured because of them, and what each most likely means.
 */
function demoBanner(emulatorUrl: string, signing: string, ignored: readonly UnknownSettingName[]): string {
  const named = ignored.map(({ name, nearest }) => (nearest ? `${name} (did you mean ${nearest}?)` : name));
  const one = named.length === 1;
  const why =
    named.length === 0
      ? `Demo mode: no ${SETTINGS.upstreamUrl.env}, key or key store is configured, so the sidecar signs for the ` +
        'built-in emulator'
      : `Demo mode: nothing is configured. ${named.join(', ')} ${one ? 'is' : 'are'} not a setting of sfd-sidecar ` +
        `and ${one ? 'was' : 'were'} ignored, so there is no upstream, key or key store, and the sidecar runs the ` +
        'demo: it signs for the built-in emulator';
  const text =
    `${why} at ${emulatorUrl} with the emulator's demo key. Configure an upstream and a key to sign for a real ` +
    'gateway. Try:';
  return [...wrapWords(text, 0), '', `  curl http://${signing}/v1.1/customer/12345`, ''].join('\n');
}
