// Bounds the connections a listener holds. Each open connection costs memory whether or not it carries
// a request, and the admin and relay listeners can be reached from the whole cluster: without a bound,
// enough idle keep-alive connections take the process past its container's memory limit, where the
// kernel kills it and every request in it. At the bound a new connection makes room: the connection
// idle longest since its last answer is closed first, then the oldest one that has sent nothing for a
// second (a caller sends its request as soon as it connects: a younger one may be a probe about to).
// Connections carrying a request are never closed; when no connection can go, the new one is refused
// with an answer.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { connectionOf } from '../http/node-internals.js';
import { ConnectionQueue, heldConnection, type HeldConnection } from './connection-queue.js';

/** Why a connection was closed to keep within the bound. */
export type ShedReason = 'idle' | 'unused' | 'refused';

export interface ConnectionLimit {
  /** Connections open now. */
  open(): number;
}

/** A listener's bound and what it reports. */
export interface ListenerConnections {
  readonly maxConnections: number;
  /** Called for each connection closed to keep within the bound. */
  readonly onShed: (reason: ShedReason) => void;
  /** Hands over the count of open connections, read at scrape time. */
  readonly observeOpen: (read: () => number) => void;
}

export interface ConnectionLimitOptions extends ListenerConnections {
  /** Writes the refusal to a connection turned away (every other connection is busy), then closes it. */
  readonly refuse: (socket: Socket) => void;
  /** Milliseconds on a monotonic clock. */
  readonly now: () => number;
}

/** How long a connection may stay silent before it can be closed to make room. */
const UNUSED_GRACE_MS = 1000;

export function limitConnections(server: Server, options: ConnectionLimitOptions): ConnectionLimit {
  /** Connections held, not counting those already being closed to make room. */
  let open = 0;
  /** Every connection's record, from the socket the 'connection' event gave. */
  const held = new WeakMap<Socket, HeldConnection>();
  /** Connections that have not sent a request yet, oldest first. */
  const silent = new ConnectionQueue();
  /** Kept-alive connections with no request in hand, longest idle first. */
  const idle = new ConnectionQueue();
  const release = (connection: HeldConnection): void => {
    if (connection.released) return;
    connection.released = true;
    open -= 1;
    connection.queue?.remove(connection);
  };

  server.on('connection', (socket: Socket) => {
    open += 1;
    const connection = heldConnection(socket, options.now());
    held.set(socket, connection);
    socket.once('close', () => release(connection));
    if (open > options.maxConnections && !makeRoom()) {
      release(connection);
      options.onShed('refused');
      options.refuse(socket);
      return;
    }
    silent.push(connection);
  });

  // Before the app's own listener, which may answer at once.
  server.prependListener('request', (incoming: IncomingMessage, outgoing: ServerResponse) => {
    // Keyed by the connection the 'connection' event gave: on a TLS listener a request arrives on the
    // TLS socket wrapped around it.
    const connection = held.get(connectionOf(incoming.socket));
    if (!connection || connection.released) return;
    connection.queue?.remove(connection);
    connection.inHand += 1;
    outgoing.once('close', () => {
      connection.inHand -= 1;
      if (connection.inHand === 0 && !connection.released && !connection.socket.destroyed) idle.push(connection);
    });
  });

  /** Closes the longest idle, else the oldest silent connection; false when none can go. */
  function makeRoom(): boolean {
    const longestIdle = idle.first();
    if (longestIdle) return shed(longestIdle, 'idle');
    const oldest = silent.first();
    if (oldest && options.now() - oldest.cameAt >= UNUSED_GRACE_MS) return shed(oldest, 'unused');
    return false;
  }

  function shed(connection: HeldConnection, reason: ShedReason): true {
    release(connection);
    connection.socket.destroy();
    options.onShed(reason);
    return true;
  }

  options.observeOpen(() => open);
  return { open: () => open };
}
