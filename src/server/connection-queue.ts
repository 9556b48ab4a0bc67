// The connection bound's view of each connection and of each caller, and the queues it keeps a caller's
// connections in: silent (no request yet) and idle (no request in hand), each in the order connections
// joined it. A connection joins and leaves a queue in constant time and without allocating, the links
// being fields of its own record: it moves between queues on every request, and an insertion-ordered
// Map re-filled per request would reallocate its table every few dozen requests, tables that outlive
// young collections and end as garbage in the old generation.
import type { Socket } from 'node:net';

/** One caller (a source address) as the bound follows it. */
export interface Caller {
  readonly address: string;
  /** Connections it holds. */
  held: number;
  /** Its kept-alive connections with no request in hand, longest idle first. */
  readonly idle: ConnectionQueue;
  /** Its connections that have not sent a request yet, oldest first. */
  readonly silent: ConnectionQueue;
}

/** One connection as the bound follows it. */
export interface HeldConnection {
  readonly socket: Socket;
  /** Who it comes from. */
  readonly caller: Caller;
  /** When it came, on the bound's clock. */
  readonly cameAt: number;
  /** Requests in hand (pipelined requests can overlap). */
  inHand: number;
  /** Closed, or closed to make room: no longer counted. */
  released: boolean;
  /** The queue it waits in, or null while it carries a request. */
  queue: ConnectionQueue | null;
  prev: HeldConnection | null;
  next: HeldConnection | null;
}

export function heldConnection(socket: Socket, caller: Caller, cameAt: number): HeldConnection {
  return { socket, caller, cameAt, inHand: 0, released: false, queue: null, prev: null, next: null };
}

/** Connections in the order they joined the queue. */
export class ConnectionQueue {
  private head: HeldConnection | null = null;
  private tail: HeldConnection | null = null;

  /** The connection that has waited longest, or null. */
  first(): HeldConnection | null {
    return this.head;
  }

  /** Adds the connection last, taking it out of any queue it was in. */
  push(connection: HeldConnection): void {
    connection.queue?.remove(connection);
    connection.queue = this;
    connection.prev = this.tail;
    if (this.tail) this.tail.next = connection;
    else this.head = connection;
    this.tail = connection;
  }

  /** Takes the connection out; nothing when it is not in this queue. */
  remove(connection: HeldConnection): void {
    if (connection.queue !== this) return;
    if (connection.prev) connection.prev.next = connection.next;
    else this.head = connection.next;
    if (connection.next) connection.next.prev = connection.prev;
    else this.tail = connection.prev;
    connection.queue = null;
    connection.prev = null;
    connection.next = null;
  }
}
