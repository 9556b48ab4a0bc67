// A sidecar whose keys come from a key store file watched by the real reloader, for rotation tests.
import { readRegularFile } from '../../src/files/regular-file.js';
import type { ExecutionContext } from 'ava';
import { createKeyRing, type KeyRing } from '../../src/keys/key-ring.js';
import { createKeyStoreReloader, type KeyStoreReloader } from '../../src/keys/key-store-reloader.js';
import { signableProfiles } from '../../src/keys/profile-resolver.js';
import type { SidecarOptions } from '../../src/sidecar.js';
import type { CapturedLogs } from './log-capture.js';
import { startTestSidecar, toUpstream } from './stack.js';

export interface KeyStoreSidecar {
  readonly proxyUrl: string;
  readonly adminUrl: string;
  readonly ring: KeyRing;
  readonly reloader: KeyStoreReloader;
  readonly logs: CapturedLogs;
}

export async function startKeyStoreSidecar(
  t: ExecutionContext,
  options: {
    keystorePath: string;
    upstreamUrl: string;
    intervalMs?: number;
    now?: () => number;
    /** How the reloader reads a file: the sidecar's own reader when omitted. */
    readFile?: (path: string, maxBytes: number) => Promise<string>;
    stalledAfterMs?: number;
  } & Partial<Omit<SidecarOptions, 'defaultUpstream' | 'ring'>>,
): Promise<KeyStoreSidecar> {
  const ring = createKeyRing(null, null);
  const { keystorePath, upstreamUrl, intervalMs, readFile, stalledAfterMs, ...rest } = options;
  const now = options.now ?? Date.now;
  const started = await startTestSidecar(t, { ...rest, now, defaultUpstream: toUpstream(upstreamUrl), ring });
  const reloader = createKeyStoreReloader({
    path: keystorePath,
    ring,
    logger: started.logs.logger,
    now,
    readFile: readFile ?? readRegularFile,
    debounceMs: 50,
    intervalMs: intervalMs ?? 600_000,
    ...(stalledAfterMs === undefined ? {} : { stalledAfterMs }),
    expiryWarningDays: 7,
    // The profiles startTestSidecar signs with, from the same options and defaults.
    profiles: signableProfiles({
      defaultProfile: rest.defaultProfile ?? 'default',
      header: rest.profileHeader ?? null,
      allowed: rest.allowedProfiles ?? new Set(),
    }),
  });
  await reloader.reload('start');
  reloader.start();
  t.teardown(() => reloader.stop());
  return { proxyUrl: started.proxyUrl, adminUrl: started.adminUrl, ring, reloader, logs: started.logs };
}

export const keystoreJson = (
  profiles: Record<string, { keys: Record<string, string>[]; [setting: string]: unknown }>,
): string => JSON.stringify({ profiles });
