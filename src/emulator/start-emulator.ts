// Builds and starts an emulator on an address: used by `sfd-sidecar emulator`, the demo and tests.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ListenAddress } from '../config/parsers.js';
import { createHttpServer } from '../server/create-http-server.js';
import { closeGracefully, formatAddress, listen } from '../server/listen.js';
import { createEmulatorApp } from './create-emulator-app.js';
import { createEmulatorState, type EmulatorState } from './emulator-state.js';
import { GATEWAY_CONTENT_TYPE, GATEWAY_ERRORS } from './gateway-errors.js';
import { DEMO_ACCESS_KEY_ID, DEMO_ACCESS_KEY_SECRET, DEMO_CUSTOMER_ID } from './seed-data.js';
import type { AcceptedForm, EmulatorKey } from './verifier.js';

export interface EmulatorOptions {
  readonly listen: ListenAddress;
  /** Accepted keys; the demo key when omitted. */
  readonly keys?: ReadonlyMap<string, EmulatorKey>;
  readonly form?: AcceptedForm;
  readonly now?: () => number;
}

export interface RunningEmulator {
  readonly state: EmulatorState;
  readonly address: AddressInfo;
  /** http://host:port of the emulator. */
  readonly url: string;
  readonly server: Server;
  close(): Promise<void>;
}

export const DEFAULT_FORM: AcceptedForm = { scheme: '2', shape: 'spec', placement: 'body' };

export function demoKeys(): Map<string, EmulatorKey> {
  return new Map([[DEMO_ACCESS_KEY_ID, { secret: Buffer.from(DEMO_ACCESS_KEY_SECRET), customerId: DEMO_CUSTOMER_ID }]]);
}

export async function startEmulator(options: EmulatorOptions): Promise<RunningEmulator> {
  const state = createEmulatorState({
    keys: new Map(options.keys ?? demoKeys()),
    form: { ...(options.form ?? DEFAULT_FORM) },
    now: options.now ?? Date.now,
  });
  const server = createHttpServer(createEmulatorApp(state), {
    onUnparsable: () => {
      const { status, code, message } = GATEWAY_ERRORS.badRequest;
      return { status, body: JSON.stringify({ code, message }), headers: { 'Content-Type': GATEWAY_CONTENT_TYPE } };
    },
  });
  const address = await listen(server, options.listen, '--listen');
  return {
    state,
    address,
    url: `http://${formatAddress(address)}`,
    server,
    close: () => closeGracefully(server, 1000),
  };
}
