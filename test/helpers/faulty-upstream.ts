// Upstreams that misbehave on purpose, on raw sockets: each connection gets the behaviour the test
// gives it, and connections are counted (retries show as extra connections).
import net from 'node:net';
import type { ExecutionContext } from 'ava';

export type Behaviour = (socket: net.Socket, connectionIndex: number) => void;

export async function startFaultyUpstream(
  t: ExecutionContext,
  behaviour: Behaviour,
): Promise<{ url: string; port: number; connections: () => number }> {
  let count = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    behaviour(socket, count);
    count += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    for (const socket of sockets) socket.destroy();
    server.close();
  });
  const port = (server.address() as net.AddressInfo).port;
  return { url: `http://127.0.0.1:${port}`, port, connections: () => count };
}

/** Reads one request head, then calls `then`. */
export function onRequestHead(socket: net.Socket, then: () => void): void {
  let seen = '';
  const onData = (chunk: Buffer): void => {
    seen += chunk.toString('latin1');
    if (seen.includes('\r\n\r\n')) {
      socket.off('data', onData);
      then();
    }
  };
  socket.on('data', onData);
}

export const okResponse = (body = '{"ok":true}'): string =>
  `HTTP/1.1 200 OK\r\nContent-Type: application/json;charset=UTF-8\r\nx-sfd-trace-id: ` +
  `${'a'.repeat(32)}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;

/**
 * An address that refuses connections: TCP port 1 on loopback, where nothing listens and which the
 * kernel never hands out for `listen(0)`. (Closing a just-opened port 0 listener instead raced with
 * the parallel tests, whose servers could be given the freed port.)
 */
export const REFUSING_ADDRESS = { host: '127.0.0.1', port: 1 } as const;
