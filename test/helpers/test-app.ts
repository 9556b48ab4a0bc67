// A real application for the notification relay to deliver to: records every request it gets and
// answers as the test sets it (200, an error status, or slowly).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ExecutionContext } from 'ava';

export interface ReceivedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: Buffer;
}

export interface TestApp {
  readonly url: string;
  readonly received: ReceivedRequest[];
  /** How the next requests are answered. */
  behaviour: { status: number; delayMs: number };
  close(): Promise<void>;
}

export async function startTestApp(t: ExecutionContext, path = '/hooks/sfd'): Promise<TestApp> {
  const received: ReceivedRequest[] = [];
  const app: TestApp = {
    url: '',
    received,
    behaviour: { status: 200, delayMs: 0 },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks),
      });
      const { status, delayMs } = app.behaviour;
      setTimeout(() => res.writeHead(status).end(), delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    server.closeAllConnections();
    server.close();
  });
  (app as { url: string }).url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`;
  return app;
}
