// A real upstream that answers every request after a delay, counting its connections: for tests of
// draining, overload and socket limits.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ExecutionContext } from 'ava';

export interface SlowUpstream {
  readonly url: string;
  /** Connections accepted so far, and the most open at once. */
  readonly stats: { total: number; open: number; most: number };
}

export async function startSlowUpstream(
  t: ExecutionContext,
  delayMs: number,
  body = '{"slow":true}',
): Promise<SlowUpstream> {
  const server = http.createServer((req, res) => {
    req.resume();
    setTimeout(() => res.writeHead(200, { 'Content-Type': 'application/json' }).end(body), delayMs);
  });
  const stats = countConnections(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    server.closeAllConnections();
    server.close();
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, stats };
}

export interface HeldUpstream {
  readonly url: string;
  /** Requests received and not answered yet. */
  readonly held: () => number;
  /** Connections accepted so far, and the most open at once. */
  readonly stats: { total: number; open: number; most: number };
  /** Answers every held request (and every later one at once) with 200. */
  release(): void;
}

/** An upstream that holds every request until the test releases it: "in flight" on the test's cue. */
export async function startHeldUpstream(t: ExecutionContext, body = '{"held":true}'): Promise<HeldUpstream> {
  const waiting: http.ServerResponse[] = [];
  let released = false;
  const answer = (res: http.ServerResponse) => res.writeHead(200, { 'Content-Type': 'application/json' }).end(body);
  const server = http.createServer((req, res) => {
    req.resume();
    if (released) answer(res);
    else waiting.push(res);
  });
  const stats = countConnections(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    server.closeAllConnections();
    server.close();
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    held: () => waiting.length,
    stats,
    release() {
      released = true;
      for (const res of waiting.splice(0)) answer(res);
    },
  };
}

function countConnections(server: http.Server): { total: number; open: number; most: number } {
  const stats = { total: 0, open: 0, most: 0 };
  server.on('connection', (socket) => {
    stats.total += 1;
    stats.open += 1;
    stats.most = Math.max(stats.most, stats.open);
    socket.on('close', () => (stats.open -= 1));
  });
  return stats;
}
