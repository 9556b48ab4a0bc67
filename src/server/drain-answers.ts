// Draining a listener without waiting on callers' kept-alive connections. Node's server.close() stops
// accepting and closes the connections idle at that moment; an answer in flight still says
// `Connection: keep-alive`, so its caller would keep the connection open and the drain would wait for
// it until SFD_SHUTDOWN_TIMEOUT_MS, then cut it, however short the answer. So once the drain starts, an
// answer not yet begun says `Connection: close` (RFC 9112 §9.6), as does an answer to a request that
// arrives on an open connection meanwhile; a connection whose answer had begun is closed as soon as
// that answer is sent in full.
import type { Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

interface AnswerTracking {
  /** The latest answer of each open connection (an entry per connection, not per request). */
  readonly latest: Map<Socket, ServerResponse>;
  draining: boolean;
}

const tracking = new WeakMap<Server, AnswerTracking>();

/** Follows the answers of a server so that `drainAnswers` can reach the ones in flight. */
export function trackAnswers(server: Server): void {
  const state: AnswerTracking = { latest: new Map(), draining: false };
  tracking.set(server, state);
  server.on('connection', (socket: Socket) => {
    socket.on('close', () => state.latest.delete(socket));
  });
  // Before the app's listener: a handler may write its answer's head at once.
  server.prependListener('request', (_incoming, outgoing: ServerResponse) => {
    if (state.draining) outgoing.shouldKeepAlive = false;
    else if (outgoing.socket) state.latest.set(outgoing.socket, outgoing);
  });
}

/** Starts the drain of a server made with `trackAnswers` (nothing for another). Call before `close()`. */
export function drainAnswers(server: Server): void {
  const state = tracking.get(server);
  if (!state || state.draining) return;
  state.draining = true;
  for (const answer of state.latest.values()) {
    if (answer.writableFinished) continue; // its connection is idle: close() closes it
    if (!answer.headersSent) answer.shouldKeepAlive = false;
    // Its head said keep-alive: the connection is closed once the answer has gone (then it is idle).
    else answer.on('finish', () => setImmediate(() => server.closeIdleConnections()));
  }
  state.latest.clear();
}
