// The one module that reaches into Node's HTTP internals that are not in its documented API: the
// link from a socket to the response being written on it, from a TLS socket to the connection under
// it, and the agent's `addRequest` hook (which agent libraries use too). The library-internals test
// checks that each still behaves as used here.
import type { Agent, ClientRequest, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

declare module 'node:http' {
  interface Agent {
    /** Node's hook between ClientRequest and its agent. */
    addRequest(request: ClientRequest, requestOptions: Record<string, unknown>): void;
  }
}

/** The response being written on a server socket (Node's own code follows the same link). */
export function responseOn(socket: Socket): ServerResponse | null {
  return (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage ?? null;
}

/**
 * The connection a server's 'connection' event gave for a request's socket: the socket itself, or for
 * TLS the socket the TLS layer wraps (Node's TLS code keeps the same link).
 */
export function connectionOf(socket: Socket): Socket {
  return (socket as Socket & { _parent?: Socket | null })._parent ?? socket;
}

/**
 * The request options a client request can carry that an agent reads to choose or open a connection.
 * The others (method, path, headers, agent) belong to the request, which has already taken them.
 */
const CONNECTION_OPTIONS = [
  'host',
  'hostname',
  'port',
  'localAddress',
  'family',
  'socketPath',
  'servername',
  'rejectUnauthorized',
  'pfx',
  'key',
  'passphrase',
  'cert',
  'ca',
  'ciphers',
  'secureProtocol',
];

/**
 * Hands the agent only the connection options that are defined. A proxy library passes a request
 * many undefined options (TLS files, socketPath, localAddress...), and the agent copies them all, with
 * its own, into a slow dictionary-mode object for every request. Nothing the agent decides changes: an
 * undefined option and a missing one read the same, and its own options, TLS trust included, still
 * apply over them. Looked up by name, not with for-in, which is slow over a dictionary-mode object.
 */
export function withDefinedRequestOptions<A extends Agent>(agent: A): A {
  if (typeof agent.addRequest !== 'function') throw new Error('http.Agent has no addRequest hook');
  const addRequest = agent.addRequest.bind(agent);
  agent.addRequest = (request, requestOptions) => {
    const defined: Record<string, unknown> = {};
    for (const name of CONNECTION_OPTIONS) {
      const value = requestOptions[name];
      if (value !== undefined) defined[name] = value;
    }
    addRequest(request, defined);
  };
  return agent;
}
