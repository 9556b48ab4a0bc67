// The connection-retry policy: a request is sent again only when no byte of it can have reached the
// gateway, for the listed methods, a bounded number of times, after a growing wait. The integration
// tests (upstream-faults) show the retries on real sockets.
import test from 'ava';
import { createConnectRetryPolicy } from '../../../src/proxy/connect-retry.js';

const defaults = { retries: 2, methods: ['GET', 'HEAD'] };
const neverSent = (code: string | undefined) => ({ code, reachedUpstream: false });

test('a connection that could not be opened is retried for a listed method, until the retries are used', (t) => {
  const delayFor = createConnectRetryPolicy({ ...defaults, random: () => 0 });
  t.is(delayFor(neverSent('ECONNREFUSED'), 'GET', 0), 50);
  t.is(
    delayFor(neverSent('ECONNRESET'), 'HEAD', 1),
    100,
    'a reset before the connection opened (during the TLS handshake)',
  );
  t.is(delayFor(neverSent('EHOSTUNREACH'), 'GET', 2), null, 'two retries, then the failure is final');
});

test('a request that may have reached the gateway is never sent again, whatever the method or the error', (t) => {
  const delayFor = createConnectRetryPolicy({ ...defaults, methods: ['GET', 'HEAD', 'POST'] });
  for (const method of ['GET', 'HEAD', 'POST']) {
    for (const code of ['ECONNRESET', 'EPIPE', 'ECONNREFUSED'])
      t.is(delayFor({ code, reachedUpstream: true }, method, 0), null, `${method} ${code}`);
  }
});

test('the wait doubles with each retry, with up to 50 ms of jitter on top', (t) => {
  const delayFor = createConnectRetryPolicy({ retries: 4, methods: ['GET'], random: () => 0.999 });
  const waits = [0, 1, 2, 3].map((n) => delayFor(neverSent('ECONNREFUSED'), 'GET', n)!);
  t.deepEqual(
    waits.map((w) => Math.floor(w)),
    [99, 149, 249, 449],
  );
});

test('POST and other methods not listed in SFD_RETRY_METHODS are never sent twice', (t) => {
  const delayFor = createConnectRetryPolicy(defaults);
  for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'])
    t.is(delayFor(neverSent('ECONNREFUSED'), method, 0), null, method);
  const withPost = createConnectRetryPolicy({ ...defaults, methods: ['GET', 'POST'] });
  t.not(withPost(neverSent('ECONNREFUSED'), 'POST', 0), null, 'unless the operator lists it');
});

test('failures another attempt would meet again, or without a code, are final', (t) => {
  const delayFor = createConnectRetryPolicy(defaults);
  for (const code of [
    undefined,
    'ERR_TLS_CERT_ALTNAME_INVALID',
    'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
    'DEPTH_ZERO_SELF_SIGNED_CERT',
    'ENOTFOUND',
  ]) {
    t.is(delayFor(neverSent(code), 'GET', 0), null, String(code));
  }
});

test('with SFD_UPSTREAM_RETRIES=0 nothing is retried', (t) => {
  const delayFor = createConnectRetryPolicy({ ...defaults, retries: 0 });
  t.is(delayFor(neverSent('ECONNREFUSED'), 'GET', 0), null);
});
