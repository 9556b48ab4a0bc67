// Faults from upstream: each gives the right Sidecar.* error or passes through, never crashes, never
// answers twice, and leaves no socket behind. A request is sent again (re-signed) only when no byte of
// it can have reached the gateway, and only for the listed methods.
import http from 'node:http';
import net from 'node:net';
import test from 'ava';
import { rawExchange, rawExchangeEnding, send, statusOf } from '../helpers/http.js';
import { eventually } from '../helpers/time.js';
import { okResponse, onRequestHead, REFUSING_ADDRESS, startFaultyUpstream } from '../helpers/faulty-upstream.js';
import { startTestSidecar, toUpstream } from '../helpers/stack.js';
import { startSelfSignedServer } from '../helpers/tls-server.js';
import { startSlowUpstream } from '../helpers/slow-upstream.js';
import { parseExposition, valueOf } from '../helpers/exposition.js';
import { DEFAULT_LIMITS } from '../../src/config/limits-config.js';

test('dns-failure: an upstream name that does not resolve gives 502', async (t) => {
  const { proxyUrl } = await startTestSidecar(t, { defaultUpstream: toUpstream('http://no-such-host.invalid') });
  const answer = await send(`${proxyUrl}/v1.1/customer`);
  t.is(answer.status, 502);
  t.is(answer.json().code, 'Sidecar.UpstreamUnreachable');
});

test(
  'tls-untrusted-certificate and tls-wrong-name give ' + '502; a trusted CA file and the right name succeed',
  async (t) => {
    const server = await startSelfSignedServer(t, 'localhost');
    const untrusted = await startTestSidecar(t, { defaultUpstream: toUpstream(`https://localhost:${server.port}`) });
    t.is((await send(`${untrusted.proxyUrl}/x`)).status, 502);
    const { readFileSync } = await import('node:fs');
    const ca = readFileSync(server.certFile, 'utf8');
    const wrongName = await startTestSidecar(t, {
      defaultUpstream: toUpstream(`https://127.0.0.1:${server.port}`),
      upstreamCa: ca,
    });
    t.is((await send(`${wrongName.proxyUrl}/x`)).status, 502);
    t.true(wrongName.logs.text().includes('ERR_TLS_CERT_ALTNAME_INVALID'));
    const trusted = await startTestSidecar(t, {
      defaultUpstream: toUpstream(`https://localhost:${server.port}`),
      upstreamCa: ca,
    });
    t.is((await send(`${trusted.proxyUrl}/x`)).status, 200);
  },
);

test(
  'an upstream that reads the whole request and closes without answering gets exactly one copy, GET and listed ' +
    'POST alike',
  async (t) => {
    const copies: string[] = [];
    const upstream = await startFaultyUpstream(t, (socket) =>
      onRequestHead(socket, () => {
        copies.push('request');
        socket.destroy();
      }),
    );
    const { proxyUrl, logs } = await startTestSidecar(t, {
      defaultUpstream: toUpstream(upstream.url),
      limits: { ...DEFAULT_LIMITS, retryMethods: ['GET', 'HEAD', 'POST'] },
    });
    for (const [method, body] of [
      ['GET', undefined],
      ['POST', '{"timeWindow":1,"requestLimit":1}'],
    ] as const) {
      copies.length = 0;
      const answer = await send(`${proxyUrl}/cdn/v1.0/services/1/rateLimit`, { method, ...(body ? { body } : {}) });
      t.is(answer.status, 502, method);
      t.is(answer.json().code, 'Sidecar.UpstreamClosed', method);
      t.truthy(answer.headers['x-sfd-trace-id']);
      t.is(copies.length, 1, `${method} reached the gateway once`);
    }
    t.is(logs.lines().filter((l) => l.event === 'retrying after a connection failure').length, 0);
  },
);

test(
  'a reset before the request can be written (during ' + 'the TLS handshake) is retried, re-signed, and ' + 'succeeds',
  async (t) => {
    const server = await startSelfSignedServer(t, 'localhost');
    // Connection 0 is reset before the handshake; the others are passed to the TLS server.
    const front = await startFaultyUpstream(t, (socket, index) => {
      if (index === 0) return void socket.resetAndDestroy();
      const backend = net.connect(server.port, '127.0.0.1');
      socket.pipe(backend).pipe(socket);
      backend.on('error', () => socket.destroy());
    });
    const { readFileSync } = await import('node:fs');
    const { proxyUrl, logs } = await startTestSidecar(t, {
      defaultUpstream: toUpstream(`https://localhost:${front.port}`),
      upstreamCa: readFileSync(server.certFile, 'utf8'),
    });
    const answer = await send(`${proxyUrl}/v1.1/customer`);
    t.is(answer.status, 200);
    t.is(front.connections(), 2, 'one reset, one retry');
    t.like(
      logs.lines().find((l) => l.event === 'retrying after a connection failure'),
      { attempt: 1, errorCode: 'ECONNRESET' },
    );
  },
);

test('a refused connection is retried for GET and HEAD, never for POST unless listed', async (t) => {
  const { proxyUrl, logs } = await startTestSidecar(t, {
    defaultUpstream: toUpstream(`http://${REFUSING_ADDRESS.host}:${REFUSING_ADDRESS.port}`),
  });
  const retries = (): number => logs.lines().filter((l) => l.event === 'retrying after a connection failure').length;
  const get = await send(`${proxyUrl}/v1.1/customer`);
  t.is(get.status, 502);
  t.is(get.json().code, 'Sidecar.UpstreamUnreachable');
  t.is(retries(), 2, 'two retries of the GET');
  t.is((await send(`${proxyUrl}/cdn/v1.0/services/1/rateLimit`, { method: 'POST', body: '{}' })).status, 502);
  t.is(retries(), 2, 'the POST is not retried');
});

test('reset-mid-body: the caller connection is cut, not answered twice', async (t) => {
  const upstream = await startFaultyUpstream(t, (socket) =>
    onRequestHead(socket, () => {
      socket.write('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"partial":');
      setTimeout(() => socket.resetAndDestroy(), 50);
    }),
  );
  const { sidecar, logs } = await startTestSidecar(t, { defaultUpstream: toUpstream(upstream.url) });
  const raw = await rawExchange(sidecar.proxyAddress.port, 'GET /x HTTP/1.1\r\nHost: x\r\n\r\n');
  t.is(statusOf(raw), 200);
  t.is(raw.match(/HTTP\/1\.1/g)?.length, 1, 'one status line only');
  t.true(raw.endsWith('{"partial":'), 'the body stops where the upstream stopped');
  t.true(await eventually(() => logs.lines().some((l) => l.event === 'request' && l.completed === false)));
});

test('slow-body: an upstream that stalls mid-body is cut after SFD_UPSTREAM_TIMEOUT_MS', async (t) => {
  const upstream = await startFaultyUpstream(t, (socket) =>
    onRequestHead(socket, () => socket.write('HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nstart')),
  );
  const { sidecar } = await startTestSidecar(t, { defaultUpstream: toUpstream(upstream.url), upstreamTimeoutMs: 300 });
  const { raw, endedBy } = await rawExchangeEnding(
    sidecar.proxyAddress.port,
    'GET /x HTTP/1.1\r\nHost: x\r\n\r\n',
    20_000,
  );
  t.true(raw.endsWith('start'));
  t.is(endedBy, 'server', 'cut by the sidecar, not by the client waiting 20 s');
});

test(
  'a gateway that sends its headers and then nothing: 504 Sidecar.UpstreamTimeout with a trace id, logged and ' +
    'counted as 504',
  async (t) => {
    const upstream = await startFaultyUpstream(t, (socket) =>
      onRequestHead(socket, () =>
        socket.write(
          `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nx-sfd-trace-id: ` +
            `${'c'.repeat(32)}\r\nContent-Length: 50\r\n\r\n`,
        ),
      ),
    );
    const { proxyUrl, adminUrl, logs } = await startTestSidecar(t, {
      defaultUpstream: toUpstream(upstream.url),
      upstreamTimeoutMs: 300,
    });
    const answer = await send(`${proxyUrl}/v1.1/customer/12345`);
    t.is(answer.status, 504);
    t.is(answer.json().code, 'Sidecar.UpstreamTimeout');
    t.regex(String(answer.headers['x-sfd-trace-id']), /^[0-9a-f]{32}$/);
    t.not(answer.headers['x-sfd-trace-id'], 'c'.repeat(32), "the sidecar's own trace id, not the gateway's");
    t.true(
      await eventually(() =>
        logs
          .lines()
          .some((l) => l.event === 'request' && l.status === 504 && l.errorCode === 'Sidecar.UpstreamTimeout'),
      ),
    );
    const samples = parseExposition((await send(`${adminUrl}/metrics`)).body.toString());
    t.is(valueOf(samples, 'sfd_requests_total', { status: '504' }), 1);
    t.is(valueOf(samples, 'sfd_requests_total', { status: '200' }), undefined);
  },
);

test(
  'a gateway that stalls after part of its body: the ' + 'answer is cut, and the log says so with the timeout',
  async (t) => {
    const upstream = await startFaultyUpstream(t, (socket) =>
      onRequestHead(socket, () => socket.write('HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n{"partial":')),
    );
    const { sidecar, logs } = await startTestSidecar(t, {
      defaultUpstream: toUpstream(upstream.url),
      upstreamTimeoutMs: 300,
    });
    const { raw, endedBy } = await rawExchangeEnding(
      sidecar.proxyAddress.port,
      'GET /x HTTP/1.1\r\nHost: x\r\n\r\n',
      5000,
    );
    t.is(statusOf(raw), 200);
    t.true(raw.endsWith('{"partial":'));
    t.is(endedBy, 'server');
    t.true(
      await eventually(() =>
        logs
          .lines()
          .some(
            (l) =>
              l.event === 'request' &&
              l.status === 200 &&
              l.completed === false &&
              l.errorCode === 'Sidecar.UpstreamTimeout',
          ),
      ),
    );
  },
);

test('an upstream 204 or 304 that carries Content-Length reaches the caller without it', async (t) => {
  for (const status of [204, 304]) {
    const upstream = await startFaultyUpstream(t, (socket) =>
      onRequestHead(socket, () => socket.end(`HTTP/1.1 ${status} X\r\nContent-Length: 12\r\nETag: "v1"\r\n\r\n`)),
    );
    const { sidecar } = await startTestSidecar(t, { defaultUpstream: toUpstream(upstream.url) });
    const raw = await rawExchange(sidecar.proxyAddress.port, 'GET /x HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    t.is(statusOf(raw), status);
    t.notRegex(raw, /content-length/i, String(status));
    t.regex(raw, /ETag: "v1"/);
  }
});

test('5xx-passthrough: the upstream 503 and its body and trace id reach the caller unchanged', async (t) => {
  const body = '{"code":"Service.Unavailable","message":"try later"}';
  const upstream = await startFaultyUpstream(t, (socket) =>
    onRequestHead(socket, () =>
      socket.end(
        `HTTP/1.1 503 Service Unavailable\r\nx-sfd-trace-id: ${'b'.repeat(32)}\r\nContent-Length: ` +
          `${body.length}\r\n\r\n${body}`,
      ),
    ),
  );
  const { proxyUrl } = await startTestSidecar(t, { defaultUpstream: toUpstream(upstream.url) });
  const answer = await send(`${proxyUrl}/x`);
  t.is(answer.status, 503);
  t.is(answer.body.toString(), body);
  t.is(answer.headers['x-sfd-trace-id'], 'b'.repeat(32));
});

test('malformed-http from upstream gives 502', async (t) => {
  const upstream = await startFaultyUpstream(t, (socket) =>
    onRequestHead(socket, () => socket.end('THIS IS NOT HTTP\r\n\r\n')),
  );
  const { proxyUrl } = await startTestSidecar(t, { defaultUpstream: toUpstream(upstream.url) });
  const answer = await send(`${proxyUrl}/x`, { method: 'POST', body: '{}' });
  t.is(answer.status, 502);
});

test(
  'an answer Node cannot pass on as it came: a reason phrase with DEL is replaced by the standard one, a status ' +
    'below 100 gives 502, and the sidecar goes on',
  async (t) => {
    const answers = [
      'HTTP/1.1 200 O\x7fK\r\nContent-Length: 2\r\n\r\n{}',
      'HTTP/1.1 099 Low\r\nContent-Length: 2\r\n\r\n{}',
    ];
    const upstream = await startFaultyUpstream(t, (socket, index) =>
      onRequestHead(socket, () => socket.end(Buffer.from(answers[index] ?? okResponse(), 'latin1'))),
    );
    const { proxyUrl } = await startTestSidecar(t, {
      defaultUpstream: toUpstream(upstream.url),
      limits: { ...DEFAULT_LIMITS, upstreamRetries: 0 },
    });
    const del = await rawExchange(
      Number(new URL(proxyUrl).port),
      'GET /x HTTP/1.1\r\nHost: sidecar\r\nConnection: close\r\n\r\n',
    );
    t.true(del.startsWith('HTTP/1.1 200 OK\r\n'), del.split('\r\n')[0]);
    const low = await send(`${proxyUrl}/x`);
    t.is(low.status, 502);
    t.is(low.json().code, 'Sidecar.UpstreamUnreachable');
    t.is((await send(`${proxyUrl}/x`)).status, 200, 'still serving');
  },
);

test(
  'a 101 to a request that asked for no upgrade gives ' + '502 at once rather than leaving the caller waiting',
  async (t) => {
    const upstream = await startFaultyUpstream(t, (socket, index) =>
      onRequestHead(socket, () =>
        socket.write(
          index === 0
            ? 'HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n'
            : okResponse(),
        ),
      ),
    );
    const { proxyUrl } = await startTestSidecar(t, {
      defaultUpstream: toUpstream(upstream.url),
      upstreamTimeoutMs: 10_000,
    });
    const started = Date.now();
    const answer = await send(`${proxyUrl}/x`);
    t.is(answer.status, 502);
    t.true(Date.now() - started < 5000, `answered after ${Date.now() - started} ms; SFD_UPSTREAM_TIMEOUT_MS is 10 s`);
    t.is((await send(`${proxyUrl}/x`)).status, 200, 'still serving, on a connection of its own');
  },
);

test(
  'upstream-never-reads-body: a large POST to an upstream ' + 'that never reads gives 504, and no socket stays behind',
  async (t) => {
    const upstream = await startFaultyUpstream(t, (socket) => socket.pause());
    const { proxyUrl, sidecar } = await startTestSidecar(t, {
      defaultUpstream: toUpstream(upstream.url),
      upstreamTimeoutMs: 500,
    });
    const answer = await send(`${proxyUrl}/upload`, { method: 'POST', body: 'x'.repeat(900_000) });
    t.is(answer.status, 504);
    t.is(answer.json().code, 'Sidecar.UpstreamTimeout');
    t.true(
      await eventually(() => {
        const { active, idle } = sidecar.forwarders.connections();
        return active + idle === 0;
      }, 2000),
      'the timed-out socket is destroyed',
    );
  },
);

test('the caller going away mid-request destroys the upstream request', async (t) => {
  let upstreamClosed = false;
  const upstream = await startFaultyUpstream(t, (socket) => {
    socket.resume(); // reads (and never answers), so it sees the sidecar close the connection
    socket.on('close', () => (upstreamClosed = true));
  });
  const { proxyUrl } = await startTestSidecar(t, { defaultUpstream: toUpstream(upstream.url) });
  const request = http.get(`${proxyUrl}/x`);
  request.on('error', () => undefined);
  await eventually(() => upstream.connections() === 1);
  request.destroy();
  t.true(await eventually(() => upstreamClosed, 3000));
});

test('upstream sockets are bounded by SFD_UPSTREAM_MAX_SOCKETS and reused', async (t) => {
  const slow = await startSlowUpstream(t, 100);
  const { proxyUrl } = await startTestSidecar(t, {
    defaultUpstream: toUpstream(slow.url),
    limits: { ...DEFAULT_LIMITS, upstreamMaxSockets: 3, upstreamRetries: 0, retryMethods: [], maxInflight: 100 },
  });
  const answers = await Promise.all(Array.from({ length: 12 }, () => send(`${proxyUrl}/x`)));
  t.true(answers.every((a) => a.status === 200));
  t.is(slow.stats.most, 3, 'never more than 3 connections at once');
  t.is(slow.stats.total, 3, 'the 3 connections carried all 12 requests');
});
