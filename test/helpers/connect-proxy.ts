// A real egress proxy for tests: an HTTP server that answers CONNECT by opening a TCP connection to
// the named host and relaying bytes both ways, as squid or a corporate proxy does. It resolves the
// names it is given itself (the sidecar never resolves a proxied upstream), may demand Basic
// credentials, and records every tunnel and the bytes that crossed it.
import http from 'node:http';
import https from 'node:https';
import net, { type AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import type { ExecutionContext } from 'ava';

export interface ConnectProxyOptions {
  /** Names only the proxy can resolve, e.g. gateway.test -> 127.0.0.1. */
  readonly hosts?: Readonly<Record<string, string>>;
  /** user:password the proxy demands (407 otherwise). */
  readonly credentials?: string;
  /** Targets (host:port) refused with 403. */
  readonly refuse?: readonly string[];
  /** Speak TLS to clients with this key and certificate (an https:// proxy). */
  readonly tls?: { readonly key: Buffer; readonly cert: Buffer };
}

export interface Tunnel {
  /** host:port of the CONNECT request line. */
  readonly target: string;
  readonly proxyAuthorization: string | undefined;
  /** Bytes the client sent through the tunnel, as the proxy saw them. */
  readonly sent: Buffer[];
  closed: boolean;
}

export interface ConnectProxy {
  readonly url: string;
  readonly port: number;
  readonly tunnels: Tunnel[];
  /** CONNECT requests answered with something else than 200. */
  readonly refusals: { target: string; status: number }[];
}

export async function startConnectProxy(t: ExecutionContext, options: ConnectProxyOptions = {}): Promise<ConnectProxy> {
  const tunnels: Tunnel[] = [];
  const sockets = new Set<Duplex>();
  const refusals: { target: string; status: number }[] = [];
  const expectedAuth = options.credentials ? `Basic ${Buffer.from(options.credentials).toString('base64')}` : null;
  const onRequest = (_request: http.IncomingMessage, response: http.ServerResponse): void =>
    void response.writeHead(400).end('this proxy only tunnels\n');
  const server = options.tls ? https.createServer(options.tls, onRequest) : http.createServer(onRequest);
  const refuse = (socket: Duplex, target: string, status: number, reason: string, extra = ''): void => {
    refusals.push({ target, status });
    const body = `<html><body>proxy says no: ${reason}</body></html>`;
    socket.end(
      `HTTP/1.1 ${status} ${reason}\r\n${extra}Content-Type: text/html\r\nContent-Length: ` +
        `${body.length}\r\nConnection: close\r\n\r\n${body}`,
    );
  };
  server.on('connect', (request: http.IncomingMessage, client: Duplex, head: Buffer) => {
    sockets.add(client);
    const target = request.url ?? '';
    const auth = request.headers['proxy-authorization'];
    if (expectedAuth !== null && auth !== expectedAuth) {
      return refuse(
        client,
        target,
        407,
        'Proxy Authentication Required',
        'Proxy-Authenticate: Basic realm="egress"\r\n',
      );
    }
    if (options.refuse?.includes(target)) return refuse(client, target, 403, 'Forbidden');
    const at = target.lastIndexOf(':');
    const name = target.slice(0, at).replace(/^\[|\]$/g, '');
    const upstream = net.connect({ host: options.hosts?.[name] ?? name, port: Number(target.slice(at + 1)) });
    sockets.add(upstream);
    const tunnel: Tunnel = {
      target,
      proxyAuthorization: typeof auth === 'string' ? auth : undefined,
      sent: [],
      closed: false,
    };
    tunnels.push(tunnel);
    upstream.once('connect', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      client.on('data', (chunk: Buffer) => tunnel.sent.push(chunk));
      client.pipe(upstream).pipe(client);
    });
    const close = (): void => {
      tunnel.closed = true;
      client.destroy();
      upstream.destroy();
    };
    upstream.once('error', () => (client.writable ? refuse(client, target, 502, 'Bad Gateway') : close()));
    upstream.once('close', close);
    client.once('close', close);
    client.once('error', close);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    server.closeAllConnections();
    server.close();
    for (const socket of sockets) socket.destroy();
  });
  const port = (server.address() as AddressInfo).port;
  return { url: `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}`, port, tunnels, refusals };
}
