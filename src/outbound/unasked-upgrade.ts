// A 101 to a request that asked for no upgrade: without an `upgrade` listener Node drops the socket,
// and the request neither answers nor fails, so whoever waits on it waits for good. Every request the
// sidecar sends (the forwarder, the relay's delivery, the doctor's probes) settles through this instead.
import type { ClientRequest, IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';

/** Calls `settle` with the status when the peer switches protocols unasked; the socket is closed. */
export function onUnaskedUpgrade(request: ClientRequest, settle: (status: number) => void): void {
  request.on('upgrade', (response: IncomingMessage, socket: Duplex) => {
    socket.destroy();
    settle(response.statusCode ?? 101);
  });
}
