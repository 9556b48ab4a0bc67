// Starts the real emulator and the real sidecar on port 0 for one test, and closes both afterwards.
import type { ExecutionContext } from 'ava';
import { DEFAULT_LIMITS, type Limits } from '../../src/config/limits-config.js';
import type { UpstreamTarget } from '../../src/config/parsers.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/start-emulator.js';
import type { AcceptedForm } from '../../src/emulator/verifier.js';
import { createMetrics } from '../../src/observability/metrics.js';
import { startSidecar, type RunningSidecar, type SidecarOptions } from '../../src/sidecar.js';
import { createKeyRing } from '../../src/keys/key-ring.js';
import { singleKeyStore } from '../../src/keys/key-store.js';
import { createAccessKey } from '../../src/signing/access-key.js';
import { createNonceSource } from '../../src/signing/nonce.js';
import type { AccessKey, SigningOptions } from '../../src/signing/types.js';
import { captureLogs, type CapturedLogs } from './log-capture.js';
import { TEST_KEY_ID, TEST_SECRET } from './secrets.js';
import { toUpstream } from './upstream-target.js';

export { toUpstream };

export const testKey = (): AccessKey => createAccessKey(TEST_KEY_ID, TEST_SECRET);

/**
 * Limits that make a hostile caller's effect show within a test: few upstream sockets, no retries, and
 * callers given half a second for the head and one for the whole request.
 */
export const IMPATIENT_LIMITS: Limits = {
  ...DEFAULT_LIMITS,
  upstreamMaxSockets: 8,
  upstreamRetries: 0,
  retryMethods: [],
  maxInflight: 100,
  clientHeadersTimeoutMs: 500,
  clientRequestTimeoutMs: 1000,
};

export interface StackOptions {
  readonly signing?: Partial<SigningOptions>;
  /** The form the emulator accepts; the sidecar's form when omitted. */
  readonly emulatorForm?: Partial<AcceptedForm>;
  /** Appended to the emulator's URL to make the sidecar's SFD_UPSTREAM_URL. */
  readonly upstreamPath?: string;
  readonly sidecar?: Partial<Omit<SidecarOptions, 'defaultUpstream'>>;
}

export interface Stack {
  readonly emulator: RunningEmulator;
  readonly sidecar: RunningSidecar;
  /** http://127.0.0.1:port of the signing listener. */
  readonly proxyUrl: string;
  readonly adminUrl: string;
  readonly logs: CapturedLogs;
}

/**
 * The emulator on port 0, knowing each access key id with its secret (all of one customer), accepting
 * `form` or its default; closed when the test ends.
 */
export async function startKeyedEmulator(
  t: ExecutionContext,
  known: Readonly<Record<string, string>>,
  form?: AcceptedForm,
): Promise<RunningEmulator> {
  const emulator = await startEmulator({
    listen: { host: '127.0.0.1', port: 0 },
    keys: new Map(
      Object.entries(known).map(([id, secret]) => [id, { secret: Buffer.from(secret), customerId: 12345 }]),
    ),
    ...(form ? { form } : {}),
  });
  t.teardown(() => emulator.close());
  return emulator;
}

export async function startStack(t: ExecutionContext, options: StackOptions = {}): Promise<Stack> {
  const signing: SigningOptions = {
    signatureVersion: '2',
    v2StringShape: 'spec',
    queryPlacement: 'body',
    ...options.signing,
  };
  const form: AcceptedForm = {
    scheme: signing.signatureVersion,
    shape: signing.v2StringShape,
    placement: signing.queryPlacement,
    ...options.emulatorForm,
  };
  const emulator = await startKeyedEmulator(t, { [TEST_KEY_ID]: TEST_SECRET }, form);
  const sidecar = await startTestSidecar(t, {
    defaultUpstream: toUpstream(emulator.url + (options.upstreamPath ?? '')),
    signing,
    ...options.sidecar,
  });
  return { emulator, ...sidecar };
}

export async function startTestSidecar(
  t: ExecutionContext,
  options: Partial<SidecarOptions> & { defaultUpstream: UpstreamTarget },
): Promise<{ sidecar: RunningSidecar; proxyUrl: string; adminUrl: string; logs: CapturedLogs }> {
  const logs = captureLogs();
  const sidecar = await startSidecar({
    listen: { host: '127.0.0.1', port: 0 },
    adminListen: { host: '127.0.0.1', port: 0 },
    signing: { signatureVersion: '2', v2StringShape: 'spec', queryPlacement: 'body' },
    maxBodyBytes: 1024 * 1024,
    upstreamTimeoutMs: 30_000,
    upstreamCa: null,
    ring: createKeyRing(singleKeyStore('default', testKey()), Date.now()),
    defaultProfile: 'default',
    profileHeader: null,
    allowedProfiles: new Set(),
    logger: logs.logger,
    metrics: createMetrics(),
    now: Date.now,
    nextNonce: createNonceSource(),
    ...options,
  });
  t.teardown(() => sidecar.close(0));
  return {
    sidecar,
    proxyUrl: `http://127.0.0.1:${sidecar.proxyAddress.port}`,
    adminUrl: `http://127.0.0.1:${sidecar.adminAddress.port}`,
    logs,
  };
}
