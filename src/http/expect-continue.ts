// `Expect: 100-continue` answered when the body is wanted (RFC 9110 §10.1.1), not on arrival as Node
// does by default. A client that waits for 100 Continue before sending its body is then refused
// (wrong path, forbidden, too large by its Content-Length, not ready) without sending a byte of it, and
// is asked for it at the moment a handler starts to read it.
import type { Server, ServerResponse } from 'node:http';

/** Responses whose request waits for a 100 Continue that has not been sent. */
const awaitingContinue = new WeakSet<ServerResponse>();

/** Hands `Expect: 100-continue` requests to the server's request listener without answering 100. */
export function deferContinue(server: Server): void {
  server.on('checkContinue', (incoming, outgoing: ServerResponse) => {
    awaitingContinue.add(outgoing);
    server.emit('request', incoming, outgoing);
  });
}

/** Sends the 100 Continue the request waits for, if it waits for one: its body is about to be read. */
export function continueIfAwaited(outgoing: ServerResponse): void {
  if (awaitingContinue.delete(outgoing) && !outgoing.headersSent) outgoing.writeContinue();
}
