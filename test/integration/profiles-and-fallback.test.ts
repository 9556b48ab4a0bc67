// Profile selection and its refusal (one app must not spend another app's key), and the one re-signed
// retry when the gateway refuses a key while the profile holds another valid one.
import http from 'node:http';
import type net from 'node:net';
import test, { type ExecutionContext } from 'ava';
import { parseExposition, valueOf } from '../helpers/exposition.js';
import { onRequestHead, startFaultyUpstream } from '../helpers/faulty-upstream.js';
import { send } from '../helpers/http.js';
import { keystoreJson, startKeyStoreSidecar } from '../helpers/keystore-stack.js';
import { startKeyedEmulator } from '../helpers/stack.js';
import { createSecretVolume } from '../helpers/kubelet-volume.js';
import { eventually } from '../helpers/time.js';

const keys = {
  app: { id: 'AKAPP', secret: 'profile-secret-app-11' },
  billing: { id: 'AKBILLING', secret: 'profile-secret-billing-22' },
  payroll: { id: 'AKPAYROLL', secret: 'profile-secret-payroll-33' },
};

const threeProfiles = keystoreJson({
  app: { keys: [{ accessKeyId: keys.app.id, secret: keys.app.secret }] },
  billing: { keys: [{ accessKeyId: keys.billing.id, secret: keys.billing.secret }] },
  payroll: { keys: [{ accessKeyId: keys.payroll.id, secret: keys.payroll.secret }] },
});

async function profileStack(t: ExecutionContext, header: string | null, allowed: string[]) {
  const emulator = await startKeyedEmulator(t, {
    [keys.app.id]: keys.app.secret,
    [keys.billing.id]: keys.billing.secret,
    [keys.payroll.id]: keys.payroll.secret,
  });
  const volume = createSecretVolume({ 'keystore.json': threeProfiles });
  const sidecar = await startKeyStoreSidecar(t, {
    keystorePath: volume.path('keystore.json'),
    upstreamUrl: emulator.url,
    defaultProfile: 'app',
    profileHeader: header,
    allowedProfiles: new Set(allowed),
  });
  return { emulator, sidecar };
}

interface Echo {
  rawHeaders: string[];
}
const headerNames = (echo: Echo): string[] => echo.rawHeaders.filter((_, i) => i % 2 === 0).map((n) => n.toLowerCase());

test(
  'without SFD_PROFILE_HEADER every request signs ' + 'with the default profile, whatever the caller ' + 'sends',
  async (t) => {
    const { emulator, sidecar } = await profileStack(t, null, []);
    const answer = await send(`${sidecar.proxyUrl}/_emulator/echo`, { headers: { 'X-SFD-Profile': 'payroll' } });
    t.is(answer.status, 200);
    t.is(emulator.state.accepted.at(-1)?.accessKeyId, keys.app.id);
  },
);

test('with the header, a caller picks an allowed profile, and the header never goes upstream', async (t) => {
  const { emulator, sidecar } = await profileStack(t, 'X-SFD-Profile', ['billing']);
  const billing = await send(`${sidecar.proxyUrl}/_emulator/echo`, { headers: { 'x-sfd-profile': 'billing' } });
  t.is(billing.status, 200);
  t.is(emulator.state.accepted.at(-1)?.accessKeyId, keys.billing.id);
  t.false(headerNames(billing.json<Echo>()).includes('x-sfd-profile'));
  const fallback = await send(`${sidecar.proxyUrl}/_emulator/echo`);
  t.is(fallback.status, 200);
  t.is(emulator.state.accepted.at(-1)?.accessKeyId, keys.app.id);
  const explicitDefault = await send(`${sidecar.proxyUrl}/_emulator/echo`, { headers: { 'X-SFD-Profile': 'app' } });
  t.is(explicitDefault.status, 200);
});

test("a caller naming a profile it is not allowed gets 403 and the other profile's key is never used", async (t) => {
  const { emulator, sidecar } = await profileStack(t, 'X-SFD-Profile', ['billing']);
  const before = emulator.state.accepted.length;
  for (const name of ['payroll', 'PAYROLL', 'unknown']) {
    const answer = await send(`${sidecar.proxyUrl}/v1.1/customer/12345`, { headers: { 'X-SFD-Profile': name } });
    t.is(answer.status, 403, name);
    t.is(answer.json().code, 'Sidecar.ProfileForbidden');
  }
  const malformed = await send(`${sidecar.proxyUrl}/v1.1/customer/12345`, {
    headers: ['X-SFD-Profile', 'billing', 'X-SFD-Profile', 'payroll'],
  });
  t.is(malformed.status, 400);
  t.is(emulator.state.accepted.length, before);
  t.false(emulator.state.accepted.some((a) => a.accessKeyId === keys.payroll.id));
});

test('an allowed profile missing from the store is not ready for that request only', async (t) => {
  const { sidecar } = await profileStack(t, 'X-SFD-Profile', ['billing', 'reports']);
  const answer = await send(`${sidecar.proxyUrl}/v1.1/customer/12345`, { headers: { 'X-SFD-Profile': 'reports' } });
  t.is(answer.status, 503);
  t.is(answer.json().code, 'Sidecar.NotReady');
  t.is(answer.json().reason, 'profile "reports" is not in the key store', 'the answer names the real cause');
  t.is((await send(`${sidecar.proxyUrl}/v1.1/customer/12345`)).status, 200);
});

const OLD = { id: 'AKOLD', secret: 'fallback-secret-old-44' };
const NEW = { id: 'AKNEW', secret: 'fallback-secret-new-55' };
/** The store prefers OLD (latest notBefore) while NEW is also valid: the overlap of a rotation. */
const overlapStore = keystoreJson({
  default: {
    keys: [
      { accessKeyId: NEW.id, secret: NEW.secret },
      { accessKeyId: OLD.id, secret: OLD.secret, notBefore: '2020-01-01T00:00:00Z' },
    ],
  },
});

for (const [title, gatewayKeys, refusal] of [
  [
    '401 Signature.NotMatch',
    { [OLD.id]: 'the-gateway-has-another-secret', [NEW.id]: NEW.secret },
    'Signature.NotMatch',
  ],
  ['400 AccessKeyId.Invalid', { [NEW.id]: NEW.secret }, 'AccessKeyId.Invalid'],
] as const) {
  test(`on ${title} the request is re-signed once with the other valid key and succeeds`, async (t) => {
    const emulator = await startKeyedEmulator(t, gatewayKeys);
    const volume = createSecretVolume({ 'keystore.json': overlapStore });
    const sidecar = await startKeyStoreSidecar(t, {
      keystorePath: volume.path('keystore.json'),
      upstreamUrl: emulator.url,
    });
    const answer = await send(`${sidecar.proxyUrl}/cdn/v1.0/services/1001/rateLimit`, {
      method: 'POST',
      body: '{"timeWindow": 9, "requestLimit": 3}',
    });
    t.is(answer.status, 200, answer.body.toString());
    t.is(emulator.state.accepted.at(-1)?.accessKeyId, NEW.id);
    t.is(emulator.state.accepted.length, 1);
    const retry = sidecar.logs
      .lines()
      .find((l) => l.event === 'upstream refused the key; re-signing once with another key of the profile');
    t.like(retry, { refusedAccessKeyId: OLD.id, retryAccessKeyId: NEW.id, upstreamCode: refusal });
    t.like(
      sidecar.logs.lines().find((l) => l.event === 'request'),
      { status: 200, resigned: true, accessKeyId: NEW.id },
    );
    const samples = parseExposition((await send(`${sidecar.adminUrl}/metrics`)).body.toString());
    t.is(valueOf(samples, 'sfd_resign_retries_total', { profile: 'default' }), 1);
    t.is(
      valueOf(samples, 'sfd_upstream_errors_total', { error_code: refusal }),
      1,
      'the refused first answer is counted',
    );
  });
}

test('while the gateway does not know the current key, every request is re-signed, counted, logged once', async (t) => {
  // The rotation runbook's trap: the key store makes a key current before the gateway knows it (here
  // the store's current key is the one with the latest notBefore).
  const emulator = await startKeyedEmulator(t, { [NEW.id]: NEW.secret });
  const volume = createSecretVolume({ 'keystore.json': overlapStore });
  const sidecar = await startKeyStoreSidecar(t, {
    keystorePath: volume.path('keystore.json'),
    upstreamUrl: emulator.url,
  });
  for (let i = 0; i < 5; i++) t.is((await send(`${sidecar.proxyUrl}/v1.1/customer/12345`)).status, 200);
  const samples = parseExposition((await send(`${sidecar.adminUrl}/metrics`)).body.toString());
  t.is(valueOf(samples, 'sfd_resign_retries_total', { profile: 'default' }), 5, 'every re-sign is counted');
  const warned = sidecar.logs
    .lines()
    .filter((l) => l.event === 'upstream refused the key; re-signing once with another key of the profile');
  t.is(warned.length, 1, 'one warn line, not one per request');
  t.like(warned[0], {
    refusedAccessKeyId: OLD.id,
    retryAccessKeyId: NEW.id,
    similarSuppressed: 0,
    upstreamCode: 'AccessKeyId.Invalid',
    retryStatus: 200,
    retryUpstreamCode: null,
  });
  t.regex(String(warned[0]!.hint), /does not know this key/);
  t.is(sidecar.logs.lines().filter((l) => l.event === 'request' && l.resigned === true).length, 5);
});

test('with no other valid key the refusal passes through unchanged, and a retry is never repeated', async (t) => {
  const emulator = await startKeyedEmulator(t, { [OLD.id]: 'another-secret', [NEW.id]: 'yet-another-secret' });
  const volume = createSecretVolume({ 'keystore.json': overlapStore });
  const sidecar = await startKeyStoreSidecar(t, {
    keystorePath: volume.path('keystore.json'),
    upstreamUrl: emulator.url,
  });
  const answer = await send(`${sidecar.proxyUrl}/v1.1/customer/12345`);
  t.is(answer.status, 401);
  t.is(answer.json().code, 'Signature.NotMatch');
  t.is(
    sidecar.logs
      .lines()
      .filter((l) => l.event === 'upstream refused the key; re-signing once with another key of the profile').length,
    1,
  );

  volume.update({
    'keystore.json': keystoreJson({ default: { keys: [{ accessKeyId: OLD.id, secret: OLD.secret }] } }),
  });
  t.true(await eventually(() => sidecar.logs.lines().filter((l) => l.event === 'key store loaded').length === 2));
  const single = await send(`${sidecar.proxyUrl}/v1.1/customer/12345`);
  t.is(single.status, 401);
  t.deepEqual(single.json(), { code: 'Signature.NotMatch', message: 'The signature does not match.' });
});

const RESIGN_EVENT = 'upstream refused the key; re-signing once with another key of the profile';

test(
  'a refusal of the signature form, re-signed with a key the gateway does not know, answers and logs the form ' +
    'refusal',
  async (t) => {
    // The gateway knows the current key but accepts scheme 1 only; the sidecar signs scheme 2, and the
    // other key of the rotation is not known to the gateway yet.
    const emulator = await startKeyedEmulator(
      t,
      { [OLD.id]: OLD.secret },
      { scheme: '1', shape: 'spec', placement: 'body' },
    );
    const volume = createSecretVolume({ 'keystore.json': overlapStore });
    const sidecar = await startKeyStoreSidecar(t, {
      keystorePath: volume.path('keystore.json'),
      upstreamUrl: emulator.url,
    });
    const answer = await send(`${sidecar.proxyUrl}/v1.1/customer/12345`);
    t.is(answer.status, 401, 'the first refusal, whose cause is the form, not the second key');
    t.deepEqual(answer.json(), { code: 'Signature.NotMatch', message: 'The signature does not match.' });
    t.is(answer.headers['content-type'], 'application/json;charset=UTF-8');
    const request = sidecar.logs.lines().find((l) => l.event === 'request');
    t.like(request, {
      status: 401,
      resigned: true,
      accessKeyId: OLD.id,
      upstreamTraceId: answer.headers['x-sfd-trace-id'],
    });
    const warned = sidecar.logs.lines().filter((l) => l.event === RESIGN_EVENT);
    t.is(warned.length, 1, 'one line for the re-sign and its outcome');
    t.like(warned[0], {
      refusedAccessKeyId: OLD.id,
      retryAccessKeyId: NEW.id,
      upstreamCode: 'Signature.NotMatch',
      retryStatus: 400,
      retryUpstreamCode: 'AccessKeyId.Invalid',
    });
    const hint = String(warned[0]!.hint);
    t.regex(hint, /form/);
    t.regex(hint, /sfd-sidecar doctor/);
    t.notRegex(hint, /does not know/);
    const samples = parseExposition((await send(`${sidecar.adminUrl}/metrics`)).body.toString());
    t.is(valueOf(samples, 'sfd_requests_total', { profile: 'default', status: '401' }), 1, 'what the caller got');
    t.is(valueOf(samples, 'sfd_requests_total', { profile: 'default', status: '400' }), undefined);
    t.is(valueOf(samples, 'sfd_resign_retries_total', { profile: 'default' }), 1);
    for (const code of ['Signature.NotMatch', 'AccessKeyId.Invalid'])
      t.is(valueOf(samples, 'sfd_upstream_errors_total', { error_code: code }), 1, `each refusal counted: ${code}`);
  },
);

test('when the re-signed request is refused too, the caller gets the first refusal as it came', async (t) => {
  const first =
    'HTTP/1.1 401 Not Your Form\r\nContent-Type: application/json;charset=UTF-8\r\nX-Gateway-Note: first\r\n' +
    `x-sfd-trace-id: ${'1'.repeat(32)}\r\nContent-Length: 47\r\n\r\n` +
    '{"code":"Signature.NotMatch","message":"first"}';
  const second =
    'HTTP/1.1 400 Bad Request\r\nContent-Type: application/json;charset=UTF-8\r\nX-Gateway-Note: second\r\n' +
    `x-sfd-trace-id: ${'2'.repeat(32)}\r\nContent-Length: 49\r\n\r\n` +
    '{"code":"AccessKeyId.Invalid","message":"second"}';
  let requests = 0;
  const answerEach = (socket: net.Socket): void =>
    onRequestHead(socket, () => {
      socket.write(requests++ === 0 ? first : second);
      answerEach(socket);
    });
  const upstream = await startFaultyUpstream(t, answerEach);
  const volume = createSecretVolume({ 'keystore.json': overlapStore });
  const sidecar = await startKeyStoreSidecar(t, {
    keystorePath: volume.path('keystore.json'),
    upstreamUrl: upstream.url,
  });
  const answer = await new Promise<http.IncomingMessage & { text: string }>((resolve, reject) => {
    http
      .get(`${sidecar.proxyUrl}/v1.1/customer/12345`, (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve(Object.assign(response, { text })));
      })
      .on('error', reject);
  });
  t.is(requests, 2, 're-signed once');
  t.is(answer.statusCode, 401);
  t.is(answer.statusMessage, 'Not Your Form');
  t.is(answer.headers['x-gateway-note'], 'first');
  t.is(answer.headers['x-sfd-trace-id'], '1'.repeat(32));
  t.is(answer.headers['content-type'], 'application/json;charset=UTF-8');
  t.is(answer.text, '{"code":"Signature.NotMatch","message":"first"}');
});

/** A gateway that answers every request 401 with `head` and then does `rest` with the socket. */
async function refusingGateway(t: ExecutionContext, contentLength: number, rest: (socket: net.Socket) => void) {
  return startFaultyUpstream(t, (socket) =>
    onRequestHead(socket, () => {
      socket.write(`HTTP/1.1 401 Unauthorized\r\nContent-Type: text/html\r\nContent-Length: ${contentLength}\r\n\r\n`);
      rest(socket);
    }),
  );
}

test(
  'a refusal whose body is larger than the sidecar looks at (16 KiB) is passed on whole, in order, and not ' +
    're-signed',
  async (t) => {
    const body = Buffer.from(Array.from({ length: 40 * 1024 }, (_, i) => String.fromCharCode(97 + (i % 26))).join(''));
    const upstream = await refusingGateway(t, body.length, (socket) => socket.write(body));
    const volume = createSecretVolume({ 'keystore.json': overlapStore });
    const sidecar = await startKeyStoreSidecar(t, {
      keystorePath: volume.path('keystore.json'),
      upstreamUrl: upstream.url,
    });
    const answer = await send(`${sidecar.proxyUrl}/v1.1/customer/12345`);
    t.is(answer.status, 401);
    t.true(answer.body.equals(body));
    t.is(upstream.connections(), 1);
  },
);

test(
  'a refusal cut off in the middle of its body while the sidecar looks at it cuts the caller off too, without a ' +
    'hang',
  async (t) => {
    const upstream = await refusingGateway(t, 1000, (socket) => {
      socket.write('{"code":"Signa');
      setTimeout(() => socket.destroy(), 50);
    });
    const volume = createSecretVolume({ 'keystore.json': overlapStore });
    const sidecar = await startKeyStoreSidecar(t, {
      keystorePath: volume.path('keystore.json'),
      upstreamUrl: upstream.url,
    });
    const outcome = await new Promise<string>((resolve) => {
      const request = http.get(`${sidecar.proxyUrl}/v1.1/customer/12345`, (response) => {
        response.resume();
        response.on('end', () => resolve(response.complete ? 'complete' : 'truncated'));
        response.on('aborted', () => resolve('aborted'));
        response.on('error', () => resolve('aborted'));
      });
      request.on('error', () => resolve('aborted'));
      request.setTimeout(5000, () => {
        resolve('hung');
        request.destroy();
      });
    });
    t.is(outcome, 'aborted', 'cut by the sidecar, not hung until the client gave up');
    t.is(upstream.connections(), 1, 'a body that never arrived is not a reason to re-sign');
  },
);
