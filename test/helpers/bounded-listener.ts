// A server under the connection bound, listening on a free loopback port, with the bound's clock in the
// test's hands: "silent for a second" is a call, not a wait. Each test keeps what the bound sheds in the
// form its assertions read.
import type { AddressInfo } from 'node:net';
import type { ExecutionContext } from 'ava';
import { limitConnections, type ConnectionLimitOptions } from '../../src/server/connection-limit.js';

export interface BoundedListener {
  readonly port: number;
  /** The connections the bound counts open. */
  readonly open: () => number;
  readonly advanceClock: (ms: number) => void;
}

export async function listenBounded(
  t: ExecutionContext,
  server: Parameters<typeof limitConnections>[0],
  options: Pick<ConnectionLimitOptions, 'maxConnections' | 'onShed'>,
): Promise<BoundedListener> {
  let clock = 0;
  let readOpen = (): number => Number.NaN;
  limitConnections(server, {
    ...options,
    observeOpen: (read) => (readOpen = read),
    refuse: (socket) => socket.destroy(),
    now: () => clock,
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    server.closeAllConnections();
    server.close();
  });
  return {
    port: (server.address() as AddressInfo).port,
    open: () => readOpen(),
    advanceClock: (ms) => (clock += ms),
  };
}
