// What /metrics on the admin listener shows after real traffic through the sidecar to the emulator.
import net from 'node:net';
import { once } from 'node:events';
import test from 'ava';
import { parseExposition, valueOf } from '../helpers/exposition.js';
import { eventually } from '../helpers/time.js';
import { send } from '../helpers/http.js';
import { TEST_SECRET } from '../helpers/secrets.js';
import { startSlowUpstream } from '../helpers/slow-upstream.js';
import { startStack, startTestSidecar, toUpstream } from '../helpers/stack.js';
import { DEFAULT_LIMITS } from '../../src/config/limits-config.js';

test('requests, upstream errors by code, sidecar errors and latencies are counted with bounded labels', async (t) => {
  const { proxyUrl, adminUrl, emulator } = await startStack(t, { sidecar: { maxBodyBytes: 100 } });
  for (let i = 0; i < 3; i += 1) t.is((await send(`${proxyUrl}/v1.1/customer/12345`)).status, 200);
  t.is((await send(`${proxyUrl}/cdn/v1.0/services/2001/rateLimit`)).status, 400);
  t.is(
    (
      await send(`${proxyUrl}/cdn/v1.0/services/1001/rateLimit`, {
        method: 'POST',
        body: '{"timeWindow": 1, "requestLimit": 2}',
      })
    ).status,
    200,
  );
  t.is((await send(`${proxyUrl}/some/raw/path/999?x=1`)).status, 400);
  t.is((await send(`${proxyUrl}/x`, { method: 'POST', body: 'y'.repeat(101) })).status, 413);
  emulator.state.form = { ...emulator.state.form, shape: 'no-keyid' };
  t.is((await send(`${proxyUrl}/v1.2/customer`)).status, 401);

  const scrape = await send(`${adminUrl}/metrics`);
  t.is(scrape.status, 200);
  t.regex(String(scrape.headers['content-type']), /^text\/plain; version=0\.0\.4/);
  const text = scrape.body.toString();
  const samples = parseExposition(text);
  const base = { profile: 'default', method: 'GET' };
  t.is(valueOf(samples, 'sfd_requests_total', { ...base, operation: 'getCustomer', status: '200' }), 3);
  t.is(valueOf(samples, 'sfd_requests_total', { ...base, operation: 'getCustomer', status: '401' }), 1);
  t.is(valueOf(samples, 'sfd_requests_total', { ...base, operation: 'getRateLimit', status: '400' }), 1);
  t.is(
    valueOf(samples, 'sfd_requests_total', {
      profile: 'default',
      method: 'POST',
      operation: 'upsertRateLimit',
      status: '200',
    }),
    1,
  );
  t.is(valueOf(samples, 'sfd_requests_total', { ...base, operation: 'other', status: '400' }), 1);
  t.is(
    valueOf(samples, 'sfd_requests_total', { profile: 'default', method: 'POST', operation: 'other', status: '413' }),
    1,
  );
  t.is(
    valueOf(samples, 'sfd_upstream_errors_total', {
      operation: 'getRateLimit',
      status: '400',
      error_code: 'ServiceId.IdPermission',
    }),
    1,
  );
  t.is(
    valueOf(samples, 'sfd_upstream_errors_total', {
      operation: 'getCustomer',
      status: '401',
      error_code: 'Signature.NotMatch',
    }),
    1,
  );
  t.is(
    valueOf(samples, 'sfd_upstream_errors_total', { operation: 'other', status: '400', error_code: 'URI.Invalid' }),
    1,
  );
  t.is(valueOf(samples, 'sfd_sidecar_errors_total', { code: 'Sidecar.BodyTooLarge' }), 1);
  t.is(
    valueOf(samples, 'sfd_request_duration_seconds_count', { ...base, operation: 'getCustomer', status_class: '2xx' }),
    3,
  );
  t.is(
    valueOf(samples, 'sfd_upstream_duration_seconds_count', {
      profile: 'default',
      operation: 'getCustomer',
      status_class: '2xx',
    }),
    3,
  );
  t.is(valueOf(samples, 'sfd_inflight_requests'), 0);
  t.is(valueOf(samples, 'sfd_key_current', { profile: 'default', access_key_id: 'AKTEST000000001' }), 1);
  t.is(valueOf(samples, 'sfd_ready'), 1);
  t.true(Math.abs(valueOf(samples, 'sfd_clock_skew_seconds') ?? 99) <= 1.5);
  t.true(samples.some((s) => s.name === 'sfd_process_cpu_user_seconds_total'));
  t.false(
    samples.some((s) => Object.values(s.labels).some((v) => v.includes('/'))),
    'no raw path is a label value',
  );
  t.false(text.includes(TEST_SECRET));
});

test('clock skew is the upstream Date header minus the local clock', async (t) => {
  const { proxyUrl, adminUrl, emulator } = await startStack(t);
  emulator.state.now = () => Date.now() + 20 * 60_000;
  // The emulator refuses a signature more than an hour off its clock; 20 minutes is accepted.
  t.is((await send(`${proxyUrl}/v1.2/customer`)).status, 200);
  const skew = valueOf(parseExposition((await send(`${adminUrl}/metrics`)).body.toString()), 'sfd_clock_skew_seconds')!;
  t.true(skew > 1198 && skew <= 1201, String(skew));
});

test('a refused profile is counted as profile "none", never under the name the caller sent', async (t) => {
  const { proxyUrl, adminUrl } = await startStack(t, {
    sidecar: { profileHeader: 'X-SFD-Profile', allowedProfiles: new Set(['other']) },
  });
  t.is((await send(`${proxyUrl}/v1.2/customer`, { headers: { 'X-SFD-Profile': 'attacker-chosen-name' } })).status, 403);
  const samples = parseExposition((await send(`${adminUrl}/metrics`)).body.toString());
  t.is(valueOf(samples, 'sfd_requests_total', { profile: 'none', status: '403' }), 1);
  t.is(valueOf(samples, 'sfd_sidecar_errors_total', { code: 'Sidecar.ProfileForbidden' }), 1);
  t.false(samples.some((s) => s.labels.profile === 'attacker-chosen-name'));
});

test('the metrics live on the admin listener only, never on the signing port', async (t) => {
  const { proxyUrl, emulator } = await startStack(t);
  const answer = await send(`${proxyUrl}/metrics`);
  t.is(answer.json().code, 'URI.Invalid');
  t.is(emulator.state.accepted.length, 1, 'the request went upstream as any other path would');
});

test('the in-flight gauge counts a request while it is being handled, and not after', async (t) => {
  const { proxyUrl, adminUrl } = await startStack(t);
  const inflight = async (): Promise<number | undefined> =>
    valueOf(parseExposition((await send(`${adminUrl}/metrics`)).body.toString()), 'sfd_inflight_requests');
  const settle = async (expected: number): Promise<number | undefined> => {
    let value = await inflight();
    for (let i = 0; i < 100 && value !== expected; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      value = await inflight();
    }
    return value;
  };
  // A request whose body has not all arrived yet stays in flight.
  const socket = net.connect(Number(new URL(proxyUrl).port), '127.0.0.1');
  await once(socket, 'connect');
  socket.write(
    'POST /cdn/v1.0/services/1001/rateLimit HTTP/1.1\r\nHost: sidecar\r\nContent-Type: ' +
      'application/json\r\nContent-Length: 40\r\n\r\n{"timeWindow"',
  );
  t.is(await settle(1), 1);
  socket.destroy();
  t.is(await settle(0), 0);
});

test('the upstream connection gauges show connections active and idle, and requests waiting for one', async (t) => {
  const slow = await startSlowUpstream(t, 400);
  const { proxyUrl, adminUrl } = await startTestSidecar(t, {
    defaultUpstream: toUpstream(slow.url),
    limits: { ...DEFAULT_LIMITS, upstreamMaxSockets: 2, upstreamRetries: 0, retryMethods: [], maxInflight: 100 },
  });
  const gauges = async (): Promise<string> => {
    const samples = parseExposition((await send(`${adminUrl}/metrics`)).body.toString());
    const connections = (state: string): number | undefined => valueOf(samples, 'sfd_upstream_connections', { state });
    return (
      `active ${connections('active')}, idle ${connections('idle')}, waiting ` +
      `${valueOf(samples, 'sfd_upstream_waiting_requests')}`
    );
  };
  /** The gauges once they read `expected`, or as they read after a second of polling. */
  const settle = async (expected: string): Promise<string> => {
    let seen = '';
    await eventually(async () => (seen = await gauges()) === expected, 1000);
    return seen;
  };
  t.is(await gauges(), 'active 0, idle 0, waiting 0');

  const answers = Promise.all(Array.from({ length: 5 }, () => send(`${proxyUrl}/v1.1/customer/12345`)));
  t.is(
    await settle('active 2, idle 0, waiting 3'),
    'active 2, idle 0, waiting 3',
    'two requests on the two connections allowed, three waiting',
  );
  t.true((await answers).every((answer) => answer.status === 200));
  t.is(
    await settle('active 0, idle 2, waiting 0'),
    'active 0, idle 2, waiting 0',
    'both connections kept alive for the next requests',
  );
});

test('an OpenMetrics scrape links the request counter and latency to the trace ids the answers carried', async (t) => {
  const { proxyUrl, adminUrl } = await startStack(t, { sidecar: { maxBodyBytes: 64 } });
  const traceIdOf = (answer: { headers: Record<string, unknown> }): string => String(answer.headers['x-sfd-trace-id']);
  const received: string[] = [];
  for (let i = 0; i < 3; i += 1) {
    // A trace id the caller sends is its own business: never an exemplar.
    const answer = await send(`${proxyUrl}/v1.1/customer/12345`, {
      headers: { 'x-sfd-trace-id': 'c'.repeat(32), traceparent: `00-${'d'.repeat(32)}-${'e'.repeat(16)}-01` },
    });
    t.is(answer.status, 200);
    received.push(traceIdOf(answer));
  }
  const refused = await send(`${proxyUrl}/upload`, { method: 'POST', body: 'z'.repeat(65) });
  t.is(refused.status, 413);
  const ownTraceId = traceIdOf(refused);
  t.regex(ownTraceId, /^[0-9a-f]{32}$/);
  t.is(new Set([...received, ownTraceId]).size, 4);

  const scrape = await send(`${adminUrl}/metrics`, {
    headers: { Accept: 'application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5,*/*;q=0.1' },
  });
  t.is(scrape.headers['content-type'], 'application/openmetrics-text; version=1.0.0; charset=utf-8');
  t.is(scrape.headers.vary, 'Accept');
  const samples = parseExposition(scrape.body.toString());
  const exemplarOf = (name: string, labels: Record<string, string>): string | undefined => {
    const found = samples.filter(
      (s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v) && s.exemplar,
    );
    return found.at(-1)?.exemplar?.labels.trace_id;
  };
  const customer = { profile: 'default', operation: 'getCustomer', method: 'GET' };
  t.is(exemplarOf('sfd_requests_total', { ...customer, status: '200' }), received.at(-1));
  t.is(exemplarOf('sfd_requests_total', { method: 'POST', status: '413' }), ownTraceId);
  t.is(exemplarOf('sfd_request_duration_seconds_bucket', { method: 'POST', status_class: '4xx' }), ownTraceId);
  const latency = samples.filter(
    (s) => s.name === 'sfd_request_duration_seconds_bucket' && s.labels.operation === 'getCustomer' && s.exemplar,
  );
  t.true(latency.length >= 1);
  t.true(latency.every((s) => received.includes(s.exemplar!.labels.trace_id!)));
  t.true(latency.some((s) => s.exemplar!.labels.trace_id === received.at(-1)));
  const withExemplars = samples.filter((s) => s.exemplar);
  t.true(withExemplars.every((s) => Object.keys(s.exemplar!.labels).join() === 'trace_id'));
  t.true(withExemplars.every((s) => /^sfd_request(s_total|_duration_seconds_bucket)$/.test(s.name)));
  t.true(withExemplars.every((s) => Math.abs(s.exemplar!.timestamp! - Date.now() / 1000) < 60));
  t.false(scrape.body.toString().includes('c'.repeat(32)));
  t.false(scrape.body.toString().includes('d'.repeat(32)));

  const text = await send(`${adminUrl}/metrics`);
  t.regex(String(text.headers['content-type']), /^text\/plain; version=0\.0\.4/);
  t.true(parseExposition(text.body.toString()).every((s) => s.exemplar === undefined));
  t.false(text.body.toString().includes(ownTraceId));
});
