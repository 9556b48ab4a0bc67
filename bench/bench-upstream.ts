// The benchmark's upstream: answers every request with a ~300-byte customer JSON and an
// x-sfd-trace-id, reads and drops request bodies, and counts the TCP connections it accepted
// (GET /__stats) so the benchmark can show that the sidecar reuses its upstream sockets. A request
// whose query holds `delayMs=N` is answered N ms after it arrived, as a gateway that far away would.
import http from 'node:http';

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
let traceCounter = 0;

const server = http.createServer((req, res) => {
  if (req.url === '/__stats') {
    res.end(JSON.stringify({ connections }));
    return;
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
  process.stdout.write(`${JSON.stringify({ port: (server.address() as { port: number }).port, bytes: body.length })}\n`);
});
process.on('SIGTERM', () => process.exit(0));
