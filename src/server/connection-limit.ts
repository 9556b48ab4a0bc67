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

/**
 * One open connection. It sits in at most one list at a time: `unused` until its first request, `idle`
 * between its answers, neither while it carries a request. Lists are linked through the entries
 * themselves, so that a request moves its connection without adding to or deleting from a Map: such a
 * change rebuilds the Map's table every few dozen requests, and each table is kept alive by a
 * long-lived Map long enough to be copied into V8's old generation.
 */
interface Connection {
  readonly socket: Socket;
  /** When it came, on the monotonic clock. */
  readonly arrivedAt: number;
  /** Requests in hand (pipelined requests can overlap). */
  busy: number;
  list: ConnectionList | null;
  prev: Connection | null;
  next: Connection | null;
}

/** Connections in the order they joined, oldest first. */
class ConnectionList {
  private head: Connection | null = null;
  private tail: Connection | null = null;

  oldest(): Connection | null {
    return this.head;
  }

  append(connection: Connection): void {
    if (connection.list) connection.list.remove(connection);
    connection.list = this;
    connection.prev = this.tail;
    connection.next = null;
    if (this.tail) this.tail.next = connection;
    else this.head = connection;
    this.tail = connection;
  }

  remove(connection: Connection): void {
    if (connection.list !== this) return;
    if (connection.prev) connection.prev.next = connection.next;
    else this.head = connection.next;
    if (connection.next) connection.next.prev = connection.prev;
    else this.tail = connection.prev;
    connection.list = connection.prev = connection.next = null;
  }
}

export function limitConnections(server: Server, options: ConnectionLimitOptions): ConnectionLimit {
  /** Connections held, not counting those already being closed to make room. */
  let open = 0;
  /** Kept-alive connections with no request in hand, longest idle first. */
  const idle = new ConnectionList();
  /** Connections that have not sent a request yet, oldest first. */
  const unused = new ConnectionList();
  const connections = new WeakMap<Socket, Connection>();
  const released = new WeakSet<Socket>();
  const release = (connection: Connection): void => {
    if (released.has(connection.socket)) return;
    released.add(connection.socket);
    open -= 1;
    connection.list?.remove(connection);
  };

  server.on('connection', (socket: Socket) => {
    open += 1;
    const connection: Connection = { socket, arrivedAt: options.now(), busy: 0, list: null, prev: null, next: null };
    connections.set(socket, connection);
    socket.once('close', () => release(connection));
    if (open > options.maxConnections && !makeRoom()) {
      release(connection);
      options.onShed('refused');
      options.refuse(socket);
      return;
    }
    unused.append(connection);
  });

  // Before the app's own listener, which may answer at once.
  server.prependListener('request', (incoming: IncomingMessage, outgoing: ServerResponse) => {
    const connection = connections.get(connectionOf(incoming.socket));
    if (!connection) return;
    connection.list?.remove(connection);
    connection.busy += 1;
    outgoing.on('close', () => {
      connection.busy -= 1;
      if (connection.busy === 0 && !connection.socket.destroyed && !released.has(connection.socket))
        idle.append(connection);
    });
  });

  /** Closes the longest idle, else the oldest silent connection; false when none can go. */
  function makeRoom(): boolean {
    const longestIdle = idle.oldest();
    if (longestIdle) return shed(longestIdle, 'idle');
    const oldest = unused.oldest();
    if (oldest && options.now() - oldest.arrivedAt >= UNUSED_GRACE_MS) return shed(oldest, 'unused');
    return false;
  }

  function shed(connection: Connection, reason: ShedReason): true {
    release(connection);
    connection.socket.destroy();
    options.onShed(reason);
    return true;
  }

  options.observeOpen(() => open);
  return { open: () => open };
}
