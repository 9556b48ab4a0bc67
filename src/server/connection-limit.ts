// Bounds the connections a listener holds, and shares them between its callers. Each open connection
// costs memory whether or not it carries a request, and the admin and relay listeners can be reached
// from the whole cluster: without a bound, enough idle keep-alive connections take the process past its
// container's memory limit, where the kernel kills it and every request in it.
//
// At the bound a new connection makes room, taken from the callers, told apart by source address, that
// hold the most (MAKING_ROOM). A caller holding more connections than the newcomer's (the newcomer
// counted) gives one up, the one holding the most first: its longest idle, else its oldest silent one
// however young, since the newcomer's caller is owed the place. Otherwise the newcomer's own caller
// makes room: its longest idle, else its oldest that has sent nothing for a second (a caller sends its
// request as soon as it connects: a younger one may be a probe about to). A connection carrying a
// request is never closed; when none can go, the newcomer is refused with an answer. So a caller
// churning half-open connections only ever closes its own, and a caller holding few (the kubelet
// probing from its node's address, Prometheus from its pod's, the ingress in front of the relay) always
// gets a place from one holding more.
//
// The source address is what a caller cannot choose once its handshake is done; X-Forwarded-For is
// whatever a caller writes, and comes only with a whole head, which a half-open connection never sends.
// No address has a fixed share: a relay behind an ingress gets every callback from the ingress's few
// addresses, and a cap per address would refuse them while places stand empty. A caller alone may hold
// every place, and gives them up only to callers holding fewer.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { connectionOf } from '../http/node-internals.js';
import { ConnectionCallers } from './connection-callers.js';
import { heldConnection, type Caller, type HeldConnection } from './connection-queue.js';

/** Why a connection was closed to keep within the bound. */
export type ShedReason = 'idle' | 'unused' | 'refused';

/** The caller whose connection was closed or refused, and the connections it holds after that. */
export type ShedCaller = Readonly<Pick<Caller, 'address' | 'held'>>;

export interface ConnectionLimit {
  /** Connections open now. */
  open(): number;
}

/** A listener's bound and what it reports. */
export interface ListenerConnections {
  readonly maxConnections: number;
  /** Called for each connection closed to keep within the bound. */
  readonly onShed: (reason: ShedReason, caller: ShedCaller) => void;
  /** Hands over the count of open connections, read at scrape time. */
  readonly observeOpen: (read: () => number) => void;
}

export interface ConnectionLimitOptions extends ListenerConnections {
  /** Writes the refusal to a connection turned away (every other connection is busy), then closes it. */
  readonly refuse: (socket: Socket) => void;
  /** Milliseconds on a monotonic clock. */
  readonly now: () => number;
}

/** How long a connection may stay silent before its own caller's newcomer can close it to make room. */
const UNUSED_GRACE_MS = 1000;

interface RoomRule {
  /** A caller holding more than the newcomer's (the one holding the most), or the newcomer's own. */
  readonly whose: 'heavier' | 'own';
  /** Its longest idle connection, or its oldest silent one. */
  readonly queue: 'idle' | 'silent';
  /** How long that connection must have been open. */
  readonly graceMs: number;
}

/** Where room is made at the bound, the first rule that finds a connection closing it. */
const MAKING_ROOM: readonly RoomRule[] = [
  { whose: 'heavier', queue: 'idle', graceMs: 0 },
  { whose: 'heavier', queue: 'silent', graceMs: 0 },
  { whose: 'own', queue: 'idle', graceMs: 0 },
  { whose: 'own', queue: 'silent', graceMs: UNUSED_GRACE_MS },
];

const REASON_OF: Readonly<Record<RoomRule['queue'], ShedReason>> = { idle: 'idle', silent: 'unused' };

export function limitConnections(server: Server, options: ConnectionLimitOptions): ConnectionLimit {
  /** Connections held, not counting those already being closed to make room. */
  let open = 0;
  /** Every connection's record, from the socket the 'connection' event gave. */
  const held = new WeakMap<Socket, HeldConnection>();
  const callers = new ConnectionCallers();
  const release = (connection: HeldConnection): void => {
    if (connection.released) return;
    connection.released = true;
    open -= 1;
    connection.queue?.remove(connection);
    callers.leave(connection.caller);
  };

  server.on('connection', (socket: Socket) => {
    open += 1;
    const connection = heldConnection(socket, callers.join(socket.remoteAddress), options.now());
    held.set(socket, connection);
    socket.once('close', () => release(connection));
    if (open > options.maxConnections && !makeRoom(connection.caller)) {
      release(connection);
      options.onShed('refused', connection.caller);
      options.refuse(socket);
      return;
    }
    connection.caller.silent.push(connection);
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
      if (connection.inHand === 0 && !connection.released && !connection.socket.destroyed)
        connection.caller.idle.push(connection);
    });
  });

  /** Closes a connection by the first rule that finds one; false when none can go. */
  function makeRoom(own: Caller): boolean {
    const heavier = callers.heaviestAbove(own.held);
    for (const rule of MAKING_ROOM) {
      const candidate = (rule.whose === 'heavier' ? heavier : own)?.[rule.queue].first();
      if (candidate && options.now() - candidate.cameAt >= rule.graceMs) return shed(candidate, REASON_OF[rule.queue]);
    }
    return false;
  }

  function shed(connection: HeldConnection, reason: ShedReason): true {
    release(connection);
    connection.socket.destroy();
    options.onShed(reason, connection.caller);
    return true;
  }

  options.observeOpen(() => open);
  return { open: () => open };
}
