// Runs the built sfd-sidecar against the built emulator, both as real processes, through the stages of a key
// rotation, sends requests as an application would and scrapes /metrics after each batch: the series an
// alert would have seen, and the statuses the callers got.
import http from 'node:http';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startCli, type LongRunning } from './cli-process.js';
import { send } from './http.js';
import { createScrapeRecording, type ScrapeRecording } from './scrape-recording.js';
import { eventually } from './time.js';

export interface RotationKey {
  readonly id: string;
  readonly secret: string;
}

export interface RotationStage {
  /** The one key the gateway (the emulator) accepts in this stage. */
  readonly gateway: RotationKey;
  /** The key store's keys; `startsSoon` gives one a notBefore just after the store is published. */
  readonly store: readonly (RotationKey & { readonly startsSoon?: boolean })[];
  /** Scrapes in this stage, each after one batch of requests. */
  readonly scrapes: number;
}

export interface RotationRecord {
  readonly recording: ScrapeRecording;
  /** The statuses callers got, by stage. */
  readonly statuses: readonly (readonly number[])[];
}

const REQUESTS_PER_SCRAPE = 20;

const storeText = (store: RotationStage['store'], notBefore: string): string =>
  JSON.stringify({
    profiles: {
      default: {
        keys: store.map((k) => ({
          accessKeyId: k.id,
          secret: k.secret,
          ...(k.startsSoon ? { notBefore } : {}),
        })),
      },
    },
  });

async function startGateway(dir: string, key: RotationKey, listen: string): Promise<LongRunning> {
  const secretFile = join(dir, `gateway-${key.id}.secret`);
  writeFileSync(secretFile, key.secret);
  return startCli(['emulator', '--listen', listen], /Emulator listening on http:\/\/[\d.]+:\d+/, {
    env: { SFD_ACCESS_KEY_ID: key.id, SFD_ACCESS_KEY_SECRET_FILE: secretFile },
  });
}

async function stop(process: LongRunning): Promise<void> {
  process.child.kill('SIGTERM');
  await process.exited;
}

const loadCount = (sidecar: LongRunning): number => sidecar.stdout().split('"event":"key store loaded"').length - 1;

/**
 * Records `stages` in order. A stage whose gateway key differs from the last restarts the emulator on the
 * same address (a key created or revoked in the portal); one whose store differs publishes it and sends
 * SIGHUP, and waits for it to load and for any notBefore it sets to pass.
 */
export async function recordRotation(families: ReadonlySet<string>, stages: readonly RotationStage[]) {
  const dir = mkdtempSync(join(tmpdir(), 'sfd-rotation-'));
  const keystore = join(dir, 'keystore.json');
  const recording = createScrapeRecording(families);
  const statuses: number[][] = [];
  const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
  let gateway = await startGateway(dir, stages[0]!.gateway, '127.0.0.1:0');
  const gatewayUrl = /Emulator listening on (http:\/\/[\d.]+:\d+)/.exec(gateway.stderr())![1]!;
  let gatewayKey = stages[0]!.gateway;
  writeFileSync(keystore, storeText(stages[0]!.store, new Date().toISOString()));
  let store = stages[0]!.store;
  const sidecar = await startCli(['serve'], /"event":"listening"/, {
    env: {
      SFD_LISTEN: '127.0.0.1:0',
      SFD_ADMIN_LISTEN: '127.0.0.1:0',
      SFD_UPSTREAM_URL: gatewayUrl,
      SFD_KEYSTORE_FILE: keystore,
      SFD_REQUEST_LOG: 'off',
    },
  });
  try {
    const signing = /"signing":"([\d.]+:\d+)"/.exec(sidecar.stdout())![1]!;
    const admin = /"admin":"([\d.]+:\d+)"/.exec(sidecar.stdout())![1]!;
    for (const stage of stages) {
      if (stage.gateway !== gatewayKey) {
        await stop(gateway);
        gateway = await startGateway(dir, stage.gateway, new URL(gatewayUrl).host);
        gatewayKey = stage.gateway;
      }
      if (stage.store !== store) {
        const notBefore = Date.now() + 1000;
        const loaded = loadCount(sidecar);
        writeFileSync(keystore, storeText(stage.store, new Date(notBefore).toISOString()));
        sidecar.child.kill('SIGHUP');
        if (!(await eventually(() => loadCount(sidecar) > loaded))) throw new Error('the new store did not load');
        if (!(await eventually(() => Date.now() > notBefore + 50))) throw new Error('notBefore did not pass');
        store = stage.store;
      }
      const seen: number[] = [];
      for (let scrape = 0; scrape < stage.scrapes; scrape += 1) {
        for (let i = 0; i < REQUESTS_PER_SCRAPE; i += 1)
          seen.push((await send(`http://${signing}/v1.1/customer/12345`, { agent })).status);
        recording.add((await send(`http://${admin}/metrics`)).body.toString());
      }
      statuses.push(seen);
    }
  } finally {
    agent.destroy();
    await Promise.all([stop(sidecar), stop(gateway)]);
  }
  return { recording, statuses } satisfies RotationRecord;
}
