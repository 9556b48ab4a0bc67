// `check` and `audit` without FILE read the cluster of the kubeconfig; what stops them is one sentence a
// person can act on, exit 2, no stack: no kubeconfig, a context it does not hold, a server nothing
// listens on, a refusal naming the verb and the resource. An API server that would send Secrets whole
// when asked for their metadata is not read. The API servers here are small local stand-ins on port 0.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { runCli } from '../helpers/cli-process.js';

const dir = mkdtempSync(join(tmpdir(), 'sfd-kubeconfig-'));
const VALUE = 'secret-value-not-for-output';

function kubeconfig(name: string, server: string, context = 'dev'): string {
  const file = join(dir, name);
  writeFileSync(
    file,
    [
      'apiVersion: v1',
      'kind: Config',
      `clusters: [{name: c, cluster: {server: "${server}", insecure-skip-tls-verify: true}}]`,
      'users: [{name: u, user: {token: not-a-real-token}}]',
      `contexts: [{name: ${context}, context: {cluster: c, user: u}}, {name: staging, context: {cluster: c, user: u}}]`,
      `current-context: ${context}`,
      '',
    ].join('\n'),
  );
  return file;
}

async function closedPort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

async function apiServer(t: ExecutionContext, handler: Handler): Promise<{ url: string; asked: string[] }> {
  const asked: string[] = [];
  const server = createServer((request, response) => {
    asked.push(`${request.url} ${request.headers.accept}`);
    handler(request, response);
  }).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  t.teardown(() => {
    server.closeAllConnections();
    server.close();
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, asked };
}

const answer = (response: ServerResponse, status: number, body: unknown) =>
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
const emptyList = (response: ServerResponse) => answer(response, 200, { kind: 'List', metadata: {}, items: [] });
const forbidden = (response: ServerResponse, what: string) =>
  answer(response, 403, { kind: 'Status', status: 'Failure', reason: 'Forbidden', code: 403, message: what });
const noStack = /\n\s+at /;

test('a kubeconfig whose server nothing listens on: cannot reach it, which server and context, exit 2', async (t) => {
  const file = kubeconfig('closed', `https://127.0.0.1:${await closedPort()}`);
  for (const command of ['check', 'audit']) {
    const run = await runCli([command, '--kubeconfig', file]);
    t.is(run.code, 2, command);
    t.regex(
      run.stderr,
      new RegExp(
        `^sfd-sidecar ${command}: cannot reach the API server https://127\\.0\\.0\\.1:\\d+ of context dev: ` +
          'nothing listens there \\(is the cluster running, and is this the context you meant\\?\\) ' +
          '\\(ECONNREFUSED\\)\\n$',
      ),
    );
    t.is(run.stdout, '');
  }
});

test('a context the kubeconfig does not hold: its contexts are named, exit 2', async (t) => {
  const file = kubeconfig('contexts', 'https://127.0.0.1:1');
  const run = await runCli(['check', '--context', 'prod'], { env: { KUBECONFIG: file } });
  t.is(run.code, 2);
  t.is(run.stderr, `sfd-sidecar check: context prod is not in the kubeconfig ${file}: its contexts are dev, staging\n`);
});

test('no kubeconfig at all: says where it looked and how to give one, exit 2', async (t) => {
  const home = mkdtempSync(join(tmpdir(), 'sfd-home-'));
  const run = await runCli(['check'], { env: { HOME: home } });
  t.is(run.code, 2);
  t.is(
    run.stderr,
    `sfd-sidecar check: no kubeconfig: ${join(home, '.kube', 'config')} does not exist and KUBECONFIG is not set; ` +
      'give --kubeconfig FILE, or read what kubectl prints from a file: sfd-sidecar COMMAND FILE|-\n',
  );
});

test('a refusal names the verb, the resource and the scope, and what to ask for', async (t) => {
  const api = await apiServer(t, (request, response) =>
    request.url!.startsWith('/api/v1/pods?')
      ? forbidden(response, 'pods is forbidden: User "u" cannot list resource "pods" at the cluster scope')
      : emptyList(response),
  );
  const file = kubeconfig('forbidden', api.url);
  const audit = await runCli(['audit', '--kubeconfig', file]);
  t.is(audit.code, 2);
  t.is(
    audit.stderr,
    "sfd-sidecar audit: cannot list pods at the cluster scope as context dev's user (403 Forbidden): " +
      'add -n NS or ask for list on pods at the cluster scope\n',
  );
  const check = await runCli(['check', '--kubeconfig', file]);
  t.is(check.code, 2);
  t.regex(check.stderr, /^sfd-sidecar check: cannot list pods at the cluster scope .*: ask for list on pods at the/);
  t.notRegex(check.stderr, noStack);
});

test('an expired login: 401 says to log in again, exit 2', async (t) => {
  const api = await apiServer(t, (_, response) => answer(response, 401, { kind: 'Status', code: 401 }));
  const run = await runCli(['audit', '-n', 'shop', '--kubeconfig', kubeconfig('expired', api.url)]);
  t.is(run.code, 2);
  t.regex(run.stderr, /^sfd-sidecar audit: the API server does not accept the credentials of context dev \(401/);
  t.true(
    api.asked.every((line) => line.includes('/namespaces/shop')),
    api.asked.join(' '),
  );
});

test('Secrets are asked for as metadata, v1beta1 when the server refuses v1; their values never asked', async (t) => {
  const api = await apiServer(t, (request, response) => {
    if (!request.url!.startsWith('/api/v1/secrets?')) return emptyList(response);
    if (request.headers.accept!.includes('v=v1;') || request.headers.accept!.endsWith('v=v1'))
      return answer(response, 406, { kind: 'Status', code: 406 });
    answer(response, 200, {
      kind: 'PartialObjectMetadataList',
      apiVersion: 'meta.k8s.io/v1beta1',
      metadata: {},
      items: [{ metadata: { name: 'sfd-keys', namespace: 'shop' } }],
    });
  });
  const run = await runCli(['check', '--kubeconfig', kubeconfig('old', api.url)]);
  t.not(run.code, 2, run.stderr);
  const secrets = api.asked.filter((line) => line.includes('secrets'));
  t.deepEqual(
    secrets.map((line) => line.split(' ')[1]),
    [
      'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1',
      'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1beta1',
    ],
  );
});

test('a server that sends Secrets whole when asked for their metadata is not read, exit 2', async (t) => {
  const api = await apiServer(t, (request, response) =>
    request.url!.startsWith('/api/v1/secrets?')
      ? answer(response, 200, {
          kind: 'SecretList',
          metadata: {},
          items: [{ metadata: { name: 'app', namespace: 'shop' }, data: { password: VALUE } }],
        })
      : emptyList(response),
  );
  const run = await runCli(['check', '--kubeconfig', kubeconfig('whole', api.url)]);
  t.is(run.code, 2);
  t.regex(run.stderr, /answered the list of Secrets with SecretList, not their metadata only/);
  t.false(run.stdout.includes(VALUE) || run.stderr.includes(VALUE));
});

test('a kubeconfig option beside FILE|- is refused: the input is chosen once', async (t) => {
  const run = await runCli(['check', '--context', 'dev', '-'], { input: '{"kind":"List","items":[]}' });
  t.is(run.code, 2);
  t.regex(run.stderr, /--context choose the cluster to read; with FILE\|- the input is already chosen/);
});
