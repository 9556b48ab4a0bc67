// The connection-retry policy: which failures are sent again, for which methods, how often and after
// how long. The integration tests (upstream-faults) show the retries on real sockets.
import test from 'ava';
import { createConnectRetryPolicy } from '../../../src/proxy/connect-retry.js';

const defaults = { retries: 2, methods: ['GET', 'HEAD'] };

test('a connection failure before any response is retried for a listed method, until the retries are used', (t) => {
  const delayFor = createConnectRetryPolicy({ ...defaults, random: () => 0 });
  t.is(delayFor('ECONNRESET', 'GET', 0), 50);
  t.is(delayFor('ECONNREFUSED', 'HEAD', 1), 100);
  t.is(delayFor('ECONNRESET', 'GET', 2), null, 'two retries, then the failure is final');
});

test('the wait doubles with each retry, with up to 50 ms of jitter on top', (t) => {
  const delayFor = createConnectRetryPolicy({ retries: 4, methods: ['GET'], random: () => 0.999 });
  const waits = [0, 1, 2, 3].map((n) => delayFor('EAI_AGAIN', 'GET', n)!);
  t.deepEqual(waits.map((w) => Math.floor(w)), [99, 149, 249, 449]);
});

test('POST and other methods not listed in SFD_RETRY_METHODS are never sent twice', (t) => {
  const delayFor = createConnectRetryPolicy(defaults);
  for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) t.is(delayFor('ECONNRESET', method, 0), null, method);
  const withPost = createConnectRetryPolicy({ ...defaults, methods: ['GET', 'POST'] });
  t.not(withPost('ECONNRESET', 'POST', 0), null, 'unless the operator lists it');
});

test('failures that may have reached the upstream, or carry no code, are final', (t) => {
  const delayFor = createConnectRetryPolicy(defaults);
  for (const code of [undefined, 'ERR_TLS_CERT_ALTNAME_INVALID', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'ENOTFOUND', 'ERR_HTTP_REQUEST_TIMEOUT']) {
    t.is(delayFor(code, 'GET', 0), null, String(code));
  }
});

test('with SFD_UPSTREAM_RETRIES=0 nothing is retried', (t) => {
  const delayFor = createConnectRetryPolicy({ ...defaults, retries: 0 });
  t.is(delayFor('ECONNREFUSED', 'GET', 0), null);
});
