// The benchmark's upstream: answers every request with a ~300-byte customer JSON and an
// x-sfd-trace-id, reads and drops request bodies, and counts the TCP connections it accepted and the
// most that carried requests open at once (GET /__stats), so the benchmark can show that the sidecar
// reuses its upstream sockets and keeps within its bound. A request whose query holds `delayMs=N` is
// answered N ms after it arrived, as a gateway that far away would.
import http from 'node:http';
import type { Socket } from 'node:net';

const port = Number(process.argv[2] ?? 0);
const body = Buffer.from(
  JSON.stringify({
    id: 12345,
    name: 'Benchmark Customer With A Reasonably Long Name',
    parentId: 10000,
    partnership: 1,
    type: 2,
    onboardingType: 1,
    region: 'SG',
    industry: 'Media and entertainment, streaming and broadcast',
    ingestDomain: 'ingest.benchmark-customer.example.net',
    contact: 'operations@benchmark-customer.example.net',
  }),
);
let connections = 0;
// Connections are counted per interval between two stats reads, so that a row's figure leaves out the
// idle connections another proxy still holds from the row before: `open` counts the open connections
// that carried a request in this interval, `peakOpen` the most it reached.
let interval = 0;
let open = 0;
let peakOpen = 0;
const lastInterval = new WeakMap<Socket, number>();
let traceCounter = 0;

const server = http.createServer((req, res) => {
  if (req.url === '/__stats') {
    res.end(JSON.stringify({ connections, peakOpen }));
    interval += 1;
    open = 0;
    peakOpen = 0;
    return;
  }
  const socket = req.socket;
  const seenIn = lastInterval.get(socket);
  if (seenIn !== interval) {
    if (seenIn === undefined) {
      socket.on('close', () => {
        if (lastInterval.get(socket) === interval) open -= 1;
      });
    }
    lastInterval.set(socket, interval);
    open += 1;
    if (open > peakOpen) peakOpen = open;
  }
  const delayMs = Number(/[?&]delayMs=(\d+)/.exec(req.url ?? '')?.[1] ?? 0);
  req.resume();
  req.on('end', () => {
    if (delayMs > 0) setTimeout(answer, delayMs, res);
    else answer(res);
  });
});

function answer(res: http.ServerResponse): void {
  traceCounter += 1;
  res.writeHead(200, {
    'Content-Type': 'application/json;charset=UTF-8',
    'Content-Length': body.length,
    'x-sfd-trace-id': traceCounter.toString(16).padStart(32, '0'),
  });
  res.end(body);
}
server.keepAliveTimeout = 65_000;
server.on('connection', () => {
  connections += 1;
});
server.listen(port, '127.0.0.1', () => {
  process.stdout.write(
    `${JSON.stringify({ port: (server.address() as { port: number }).port, bytes: body.length })}\n`,
  );
});
process.on('SIGTERM', () => process.exit(0));
