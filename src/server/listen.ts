// Starting and stopping a server: listen on an address, and close it with a bounded drain.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ListenAddress } from '../config/parsers.js';

export function listen(server: Server, address: ListenAddress): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error): void => reject(error);
    server.once('error', onError);
    server.listen(address.port, address.host, () => {
      server.off('error', onError);
      resolve(server.address() as AddressInfo);
    });
  });
}

/**
 * Stops accepting, lets in-flight requests finish, and after `drainMs` cuts what is left.
 * Resolves once the server has closed.
 */
export function closeGracefully(server: Server, drainMs: number): Promise<void> {
  if (!server.listening) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => server.closeAllConnections(), drainMs);
    force.unref();
    server.close(() => {
      clearTimeout(force);
      resolve();
    });
    server.closeIdleConnections();
  });
}

/** `host:port` for messages, with IPv6 hosts bracketed. */
export function formatAddress(address: AddressInfo): string {
  return address.family === 'IPv6' ? `[${address.address}]:${address.port}` : `${address.address}:${address.port}`;
}
