// Request targets and framing a proxy must get right: dot segments hidden behind path parameters, a
// request line without a version or with another one, more than one Host, a scheme in upper case, and
// every method handled the same way.
import test from 'ava';
import { rawExchange, statusOf } from '../helpers/http.js';
import { startStack } from '../helpers/stack.js';

const codeOf = (raw: string): string | undefined => /"code":"([^"]+)"/.exec(raw)?.[1];

test('dot segments behind parameters, padding or overlong UTF-8 are refused and never forwarded', async (t) => {
  const { sidecar, emulator } = await startStack(t, { upstreamPath: '/api' });
  for (const path of [
    '/..;/admin',
    '/%2e%2e;/admin',
    '/..%3b/admin',
    '/v1.1/.;x=1/customer',
    '/a/..%3B/b',
    '/..%00/admin',
    '/..%20/admin',
    '/%20../admin',
    '/%c0%ae%c0%ae/admin',
    '/%e0%80%ae%e0%80%ae/admin',
    '/.%c0%ae/admin',
  ]) {
    const raw = await rawExchange(
      sidecar.proxyAddress.port,
      `GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
    );
    t.is(statusOf(raw), 400, path);
    t.is(codeOf(raw), 'Sidecar.BadRequest', path);
  }
  t.is(emulator.state.accepted.length, 0);
});

test('a request line without an HTTP version is refused with 400, another version with 505', async (t) => {
  const { sidecar, emulator } = await startStack(t);
  const http09 = await rawExchange(sidecar.proxyAddress.port, 'GET /v1.1/customer/12345\r\n\r\n');
  t.is(statusOf(http09), 400);
  t.is(codeOf(http09), 'Sidecar.MalformedRequest');
  const http2 = await rawExchange(sidecar.proxyAddress.port, 'GET /v1.1/customer/12345 HTTP/2.0\r\nHost: x\r\n\r\n');
  t.is(statusOf(http2), 505);
  t.is(codeOf(http2), 'Sidecar.HttpVersionNotSupported');
  t.is(emulator.state.accepted.length, 0);
});

test('more than one Host is refused with 400', async (t) => {
  const { sidecar, emulator } = await startStack(t);
  const raw = await rawExchange(
    sidecar.proxyAddress.port,
    'GET /v1.1/customer/12345 HTTP/1.1\r\nHost: x\r\nHost: y\r\n\r\n',
  );
  t.is(statusOf(raw), 400);
  t.is(codeOf(raw), 'Sidecar.MalformedRequest');
  t.is(emulator.state.accepted.length, 0);
});

test('every method is handled alike: an upper-case scheme, another host, a broken Host', async (t) => {
  const { sidecar, emulator } = await startStack(t);
  const upstream = `127.0.0.1:${emulator.address.port}`;
  const cases: [string, string, number][] = [
    [`HTTP://${upstream}/v1.1/customer/12345`, 'Host: x', 200],
    [`Http://${upstream}/v1.1/customer/12345`, 'Host: x', 200],
    ['HTTP://evil.example/v1.1/customer/12345', 'Host: x', 403],
    ['/v1.1/customer/12345', 'Host: a b', 400],
    ['/v1.1/customer/12345', 'Host: x:99999', 400],
    ['/v1.1/customer/12345', 'Host: x/y', 400],
  ];
  for (const [target, host, status] of cases) {
    // The emulator serves a customer to reads only; a refusal must come alike for every method.
    const methods = status === 200 ? ['GET', 'HEAD'] : ['GET', 'HEAD', 'DELETE', 'POST'];
    for (const method of methods) {
      const raw = await rawExchange(
        sidecar.proxyAddress.port,
        `${method} ${target} HTTP/1.1\r\n${host}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`,
      );
      t.is(statusOf(raw), status, `${method} ${target} ${host}`);
    }
  }
});
