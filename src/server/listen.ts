// Starting and stopping a server: listen on an address, and close it with a bounded drain.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ListenAddress } from '../config/parsers.js';
import { drainAnswers } from './drain-answers.js';

/** Why a bind failed, in words an operator can act on. */
const REASONS: Readonly<Record<string, string>> = {
  EADDRINUSE: 'the address is already in use (another process, or another container of the pod, listens there)',
  EACCES: 'permission denied (ports below 1024 need privileges the sidecar does not have)',
  EADDRNOTAVAIL: 'no network interface of this host has that address',
};

/** A listener could not bind: which setting names it, the address, and the system's reason. */
export class ListenError extends Error {
  constructor(
    readonly setting: string,
    readonly address: string,
    cause: NodeJS.ErrnoException,
  ) {
    super(`cannot listen on ${address} (${setting}): ${REASONS[cause.code ?? ''] ?? cause.message}`, { cause });
    this.name = 'ListenError';
  }
}

/** @param setting the setting or flag the address comes from, named when the bind fails */
export function listen(server: Server, address: ListenAddress, setting: string): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException): void =>
      reject(new ListenError(setting, formatHostPort(address.host, address.port), error));
    server.once('error', onError);
    // No host: Node binds `::` (IPv4 callers too) or, without IPv6, `0.0.0.0`.
    server.listen(address.port, address.host === '' ? undefined : address.host, () => {
      server.off('error', onError);
      resolve(server.address() as AddressInfo);
    });
  });
}

/**
 * Stops accepting, lets in-flight requests finish (their answers closing their connections, so that
 * kept-alive callers do not hold the server open), and after `drainMs` cuts what is left.
 * Resolves once the server has closed.
 */
export function closeGracefully(server: Server, drainMs: number): Promise<void> {
  if (!server.listening) return Promise.resolve();
  drainAnswers(server);
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
  return formatHostPort(address.address, address.port);
}

/** `host:port`, an IPv6 host in brackets. */
export function formatHostPort(host: string, port: number): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}
