// `sfd-sidecar emulator`: the local stand-in for the gateway, verifying the one signature form it is
// configured with (same setting names as the sidecar) and serving the customer and rate-limit APIs.
import { parseListen } from '../config/parsers.js';
import { DEMO_ACCESS_KEY_ID, DEMO_CUSTOMER_ID } from '../emulator/seed-data.js';
import { demoKeys, startEmulator } from '../emulator/start-emulator.js';
import type { EmulatorKey } from '../emulator/verifier.js';
import type { CliIo, RunningService } from '../command/cli-io.js';
import { readerOf, type CommandSettings } from '../command/command-settings.js';

export async function emulatorCommand(
  settings: CommandSettings,
  options: { listen?: unknown },
  io: CliIo,
): Promise<RunningService> {
  const r = readerOf(settings, io);
  const listenText = typeof options.listen === 'string' ? options.listen : '127.0.0.1:8090';
  const listen = parseListen(listenText);
  if (!listen.ok) r.problems.push(`--listen: must be ${listen.allowed} (got ${JSON.stringify(listenText)})`);
  const signing = r.signingOptions();
  let keys: Map<string, EmulatorKey> = demoKeys();
  let keyId = DEMO_ACCESS_KEY_ID;
  if (r.keyConfigured()) {
    const key = r.accessKey();
    if (key) {
      keys = new Map([[key.accessKeyId, { secret: key.secret.export(), customerId: DEMO_CUSTOMER_ID }]]);
      keyId = key.accessKeyId;
    }
  }
  r.assertValid();
  const form = { scheme: signing.signatureVersion, shape: signing.v2StringShape, placement: signing.queryPlacement };
  const emulator = await startEmulator({
    listen: listen.ok ? listen.value : { host: '127.0.0.1', port: 8090 },
    keys,
    form,
    now: io.now,
  });
  const formText = form.scheme === '1' ? 'scheme 1' : `scheme 2 shape ${form.shape}`;
  io.stderr(
    `Emulator listening on ${emulator.url}: accepts ${formText}, query placement ${form.placement}, access ` +
      `key ${keyId} (customer ${DEMO_CUSTOMER_ID}).\n`,
  );
  return {
    stop: (signal) => {
      io.stderr(`Received ${signal}; stopping the emulator.\n`);
      return emulator.close();
    },
  };
}
