// A hostile caller of a listener: it holds many half-open connections from one source address (some
// send nothing, the others part of a request head, and none ever finishes one) and opens a new one
// for each that the listener closes, until stopped.
import net from 'node:net';

export interface ChurnOptions {
  readonly port: number;
  /** The local address every connection is bound to: the source the listener sees. */
  readonly from: string;
  /** Connections it keeps trying to hold. */
  readonly connections: number;
}

export interface Churn {
  /** Connections the listener has closed (refused, or closed to make room) so far. */
  readonly cut: () => number;
  /** Closes every connection and opens no more. */
  readonly stop: () => void;
}

/** What each connection sends: nothing, or the start of a head that never ends. */
const PARTIAL_HEADS = ['', 'GET /healthz HTTP/1.1\r\n', 'GET /readyz HTTP/1.1\r\nHost: x\r\nX-Pad: '];

export function churnConnections({ port, from, connections }: ChurnOptions): Churn {
  const sockets = new Set<net.Socket>();
  let stopped = false;
  let cut = 0;
  const open = (index: number): void => {
    const socket = net.connect({ port, host: '127.0.0.1', localAddress: from });
    sockets.add(socket);
    socket.on('connect', () => socket.write(PARTIAL_HEADS[index % PARTIAL_HEADS.length]!));
    // Reads what comes (a refusal), so that it sees the listener close the connection.
    socket.resume();
    socket.on('error', () => undefined);
    socket.on('close', () => {
      sockets.delete(socket);
      if (stopped) return;
      cut += 1;
      open(index);
    });
  };
  for (let index = 0; index < connections; index += 1) open(index);
  return {
    cut: () => cut,
    stop: () => {
      stopped = true;
      for (const socket of sockets) socket.destroy();
    },
  };
}
