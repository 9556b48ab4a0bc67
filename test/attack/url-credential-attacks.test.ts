// Attacks on the rule that a refused URL is named without its user and password (docs/configuration.md,
// SFD_UPSTREAM_URL), written by a reader told only the rule. A refusal travels far: `inject` prints it in a
// CI job's log, the webhook's answer becomes an event of the namespace (readable by everyone who reads its
// events) and a line of the injector's log, `serve` writes it to the pod's log. Each test writes an upstream
// URL with credentials in spellings a careless stripper misses (no slashes, three slashes, backslashes, two
// `@`, an `@` after a backslash, no scheme, a bad port, an IPv6 host, surrounding blanks) and scans every
// byte each way in prints or answers for the user and the password. Getting through would have copied the
// gateway's credentials into the namespace's events and every log on the way.
import test, { type ExecutionContext } from 'ava';
import { parse } from 'yaml';
import { admissionReviewOf } from '../helpers/admission-review.js';
import { runCli } from '../helpers/cli-process.js';
import { DEFAULTS, envOf, sidecarOf } from '../helpers/injection.js';
import { startInjectorStack } from '../helpers/injector-stack.js';
import { eventually } from '../helpers/time.js';
import type { PodTemplate } from '../../src/injection/pod.js';

const USER = 'gw-user-31d7';
const PASSWORD = 'gw-password-a85e';
const CREDENTIALS = `${USER}:${PASSWORD}`;
const SPELLINGS = [
  `https://${CREDENTIALS}@gateway.example/`,
  `HTTPS://${CREDENTIALS}@gateway.example/v1`,
  `https:///${CREDENTIALS}@gateway.example/`,
  `https:\\\\${CREDENTIALS}@gateway.example/`,
  `https:${CREDENTIALS}@gateway.example`,
  `https://${CREDENTIALS}@gateway.example@other.example/`,
  `https://${CREDENTIALS}\\@gateway.example/`,
  `https://${USER}%3A${PASSWORD}@gateway.example/`,
  `https://${CREDENTIALS}@[::1]:8443/`,
  `https://${CREDENTIALS}@gateway.example:99999/`,
  `https://${CREDENTIALS}@gateway.example/?q=1#f`,
  `https://${CREDENTIALS}@`,
  `${CREDENTIALS}@gateway.example:443`,
  `  https://${CREDENTIALS}@gateway.example/  `,
  `ftp://${CREDENTIALS}@gateway.example/`,
];

const noCredentials = (t: ExecutionContext, output: string, where: string): void => {
  t.false(output.includes(PASSWORD), `${where} repeats the password: ${output}`);
  t.false(output.includes(USER), `${where} repeats the user: ${output}`);
};

const podWith = (name: string, upstreamUrl: string) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    name,
    namespace: 'shop',
    labels: { 'sfd-sidecar.io/inject': 'true' },
    annotations: { 'sfd-sidecar.io/upstream-url': upstreamUrl },
  },
  spec: { containers: [{ name: 'web', image: 'example/web:1' }] },
});
const list = (items: object[]): string => JSON.stringify({ apiVersion: 'v1', kind: 'List', items });
const pods = SPELLINGS.map((url, index) => podWith(`web-${index}`, url));

test('inject and check --pod: no spelling of a URL with credentials is repeated', async (t) => {
  const inject = await runCli(['inject', '--keystore-secret', 'sfd-keys', '-'], { input: list(pods) });
  t.is(inject.code, 1);
  t.is(inject.stdout, '');
  t.is(inject.stderr.match(/annotation sfd-sidecar\.io\/upstream-url: must be/g)?.length, SPELLINGS.length);
  noCredentials(t, inject.stderr, 'inject');
  for (const [index, url] of SPELLINGS.entries()) {
    const check = await runCli(['check', '--pod', `web-${index}`, '-n', 'shop', '--keystore-secret', 'sfd-keys', '-'], {
      input: list(pods),
    });
    t.is(check.code, 1, url);
    t.regex(check.stdout, /upstream-url: must be/, url);
    noCredentials(t, check.stdout + check.stderr, `check --pod for ${JSON.stringify(url)}`);
  }
});

test('webhook: no spelling of a URL with credentials reaches the answer or the log', async (t) => {
  const stack = await startInjectorStack(t, DEFAULTS);
  for (const pod of pods) {
    for (const path of ['/mutate', '/mutate/namespace']) {
      const answer = await stack.post(path, admissionReviewOf(pod));
      const review = JSON.parse(answer.body) as { response: { allowed: boolean; status?: { message: string } } };
      t.false(review.response.allowed, `${path} ${pod.metadata.annotations['sfd-sidecar.io/upstream-url']}`);
      t.regex(review.response.status!.message, /upstream-url: must be/);
      noCredentials(t, answer.body, `the answer for ${pod.metadata.annotations['sfd-sidecar.io/upstream-url']}`);
    }
  }
  t.true(await eventually(() => stack.logs.lines().filter((l) => l.event === 'admission review').length >= 30));
  noCredentials(t, stack.logs.text(), "the injector's log");
});

test('serve and injector: no spelling of a URL with credentials reaches their output at start', async (t) => {
  for (const url of SPELLINGS) {
    const env = {
      NODE_ENV: 'production',
      SFD_UPSTREAM_URL: url,
      SFD_ACCESS_KEY_ID: 'AKURLATTACK1',
      SFD_ACCESS_KEY_SECRET: 'url-attack-secret-0123456789',
    };
    const runs = await Promise.all(['serve', 'injector'].map((command) => runCli([command], { env })));
    for (const [index, run] of runs.entries()) {
      const command = index === 0 ? 'serve' : 'injector';
      t.not(run.code, 0, `${command} started with ${JSON.stringify(url)}`);
      t.regex(run.stderr, /SFD_UPSTREAM_URL/);
      noCredentials(t, run.stdout + run.stderr, `${command} with ${JSON.stringify(url)}`);
    }
  }
});

// Control: the same gateway without credentials is taken, by inject and by the webhook.
test('control: an upstream-url without credentials is injected as written', async (t) => {
  const pod = podWith('web', 'https://gateway.example/v1');
  const inject = await runCli(['inject', '--keystore-secret', 'sfd-keys', '-'], { input: JSON.stringify(pod) });
  t.is(inject.code, 0, inject.stderr);
  t.is(envOf(sidecarOf(parse(inject.stdout) as PodTemplate)).SFD_UPSTREAM_URL, 'https://gateway.example/v1');
  const stack = await startInjectorStack(t, DEFAULTS);
  const review = JSON.parse((await stack.post('/mutate', admissionReviewOf(pod))).body) as {
    response: { allowed: boolean; patch?: string };
  };
  t.true(review.response.allowed);
  t.regex(Buffer.from(review.response.patch!, 'base64').toString(), /https:\/\/gateway\.example\/v1/);
});
