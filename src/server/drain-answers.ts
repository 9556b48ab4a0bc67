// Draining a listener without waiting on callers' kept-alive connections. Node's server.close() stops
// accepting and closes the connections idle at that moment; an answer in flight still says
// `Connection: keep-alive`, so its caller would keep the connection open and the drain would wait for
// it until SFD_SHUTDOWN_TIMEOUT_MS, then cut it, however short the answer. So once the drain starts, an
// answer not yet begun says `Connection: close` (RFC 9112 §9.6), as does an answer to a request that
// arrives on an open connection meanwhile; a connection whose answer had begun is closed as soon as
// that answer is sent in full.
//
// The connections are followed, not the answers: the answer in flight on each is read from the
// connection when the drain starts. A reference kept to each connection's latest answer would hold
// that answer, and everything its handler left reachable from it, until the connection's next request.
import type { Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { responseOn } from '../http/node-internals.js';

interface AnswerTracking {
  readonly connections: Set<Socket>;
  draining: boolean;
}

const tracking = new WeakMap<Server, AnswerTracking>();

/** Follows the answers of a server so that `drainAnswers` can reach the ones in flight. */
export function trackAnswers(server: Server): void {
  const state: AnswerTracking = { connections: new Set(), draining: false };
  tracking.set(server, state);
  server.on('connection', (socket: Socket) => {
    state.connections.add(socket);
    socket.on('close', () => state.connections.delete(socket));
  });
  // Before the app's listener: a handler may write its answer's head at once.
  server.prependListener('request', (_incoming, outgoing: ServerResponse) => {
    if (state.draining) outgoing.shouldKeepAlive = false;
  });
}

/** Starts the drain of a server made with `trackAnswers` (nothing for another). Call before `close()`. */
export function drainAnswers(server: Server): void {
  const state = tracking.get(server);
  if (!state || state.draining) return;
  state.draining = true;
  for (const socket of state.connections) {
    const answer = responseOn(socket);
    if (answer === null || answer.writableFinished) continue; // the connection is idle: close() closes it
    if (!answer.headersSent) answer.shouldKeepAlive = false;
    // Its head said keep-alive: the connection is closed once the answer has gone (then it is idle).
    else answer.on('finish', () => setImmediate(() => server.closeIdleConnections()));
  }
  state.connections.clear();
}
