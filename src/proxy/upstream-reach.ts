// Whether a request sent upstream may have reached the gateway: a retry is safe only when it cannot
// have. A request reaches the gateway once a byte of it goes on an open connection. On a new
// connection, the request's bytes wait until the connection is open (TCP connected and, for TLS, the
// handshake done); on a kept-alive connection they go out at once, unless that connection was found
// closed first.
import type { ClientRequest } from 'node:http';
import type { Socket } from 'node:net';
import { TLSSocket } from 'node:tls';

/** @returns whether a byte of the request may have reached the upstream, asked when the request fails */
export function trackUpstreamReach(request: ClientRequest): () => boolean {
  let open = false;
  request.once('socket', (socket: Socket) => {
    if (request.reusedSocket || isEstablished(socket)) {
      open = !socket.destroyed && socket.writable;
      return;
    }
    socket.once(socket instanceof TLSSocket ? 'secureConnect' : 'connect', () => {
      open = true;
    });
  });
  return () => open;
}

/** A TLS socket is open once it has sent its handshake's Finished message; a TCP one once connected. */
function isEstablished(socket: Socket): boolean {
  if (socket instanceof TLSSocket) return socket.getFinished() !== undefined;
  return !socket.connecting && !socket.pending;
}
