// `sfd-sidecar serve` (the default): load the configuration, start the sidecar, and with nothing
// configured outside production, start the built-in emulator with its demo key in front of it.
import { loadConfig, type SettingValues } from '../config/load-config.js';
import { parseUpstreamUrl } from '../config/parsers.js';
import { startEmulator, type RunningEmulator } from '../emulator/start-emulator.js';
import { DEMO_ACCESS_KEY_ID, DEMO_ACCESS_KEY_SECRET } from '../emulator/seed-data.js';
import { createLogger, type Logger } from '../observability/logger.js';
import { formatAddress } from '../server/listen.js';
import { startSidecar } from '../sidecar.js';
import { createAccessKey } from '../signing/access-key.js';
import { createNonceSource } from '../signing/nonce.js';
import type { CliIo, RunningService } from './cli-io.js';

export interface ServeDeps extends CliIo {
  readonly production: boolean;
  /** Overrides the logger (tests); otherwise JSON lines on stdout. */
  readonly logger?: Logger;
}

export async function serveCommand(values: SettingValues, deps: ServeDeps): Promise<RunningService> {
  const config = loadConfig(values, { readFile: deps.readFile, production: deps.production });
  const logger = deps.logger ?? createLogger({ level: config.logLevel });
  let emulator: RunningEmulator | undefined;
  let upstream = config.upstream;
  let key = config.key;
  if (config.demo) {
    emulator = await startEmulator({ listen: { host: '127.0.0.1', port: 0 } });
    const parsed = parseUpstreamUrl(emulator.url);
    upstream = parsed.ok ? parsed.value : null;
    key = createAccessKey(DEMO_ACCESS_KEY_ID, DEMO_ACCESS_KEY_SECRET);
  }
  if (!upstream) throw new Error('no upstream');
  const currentKey = key;
  try {
    const sidecar = await startSidecar({
      upstream,
      listen: config.listen,
      adminListen: config.adminListen,
      signing: config.signing,
      maxBodyBytes: config.maxBodyBytes,
      upstreamTimeoutMs: config.upstreamTimeoutMs,
      upstreamCa: config.upstreamCa,
      currentKey: () => currentKey,
      logger,
      now: deps.now,
      nextNonce: createNonceSource(),
    });
    if (emulator) {
      const signing = formatAddress(sidecar.proxyAddress);
      deps.stderr(
        [
          `Demo mode: no SFD_UPSTREAM_URL or key is configured, so the sidecar signs for the built-in emulator at ${emulator.url}`,
          `with the emulator's demo key. Set SFD_UPSTREAM_URL and a key to sign for a real gateway. Try:`,
          ``,
          `  curl http://${signing}/v1.1/customer/12345`,
          ``,
        ].join('\n'),
      );
    }
    return {
      async stop() {
        logger.info('shutting down', { drainMs: config.shutdownTimeoutMs });
        await sidecar.close(config.shutdownTimeoutMs);
        await emulator?.close();
        logger.info('stopped');
        logger.flush();
      },
    };
  } catch (error) {
    await emulator?.close();
    throw error;
  }
}
