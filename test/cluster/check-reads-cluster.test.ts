// `check` and `audit` read a real API server themselves, with a kubeconfig and no pipe: the report is
// the one `check -` gives on what kubectl prints of the same objects, line for line; no Secret's value
// reaches the output. What crossed is seen from the API server's side: its audit log records every
// request of the reader (a user holding only the rights the docs list) and the answer to its lists of
// Secrets, which must be metadata only, and the single Secrets it read must be those a check needs.
import { readFileSync } from 'node:fs';
import test from 'ava';
import { runCli } from '../helpers/cli-process.js';
import { installChart, RELEASE_NAMESPACE, type InstalledChart } from '../helpers/cluster/installed-chart.js';
import { clusterTarget, freshNamespace, getJson, kubectl, kubectlOk, watchUntil } from '../helpers/cluster/kube.js';

const NAMESPACE = 'shop-read';
const KEYSTORE_VALUE = '{"profiles":{"default":{"key":"c2VjcmV0LWtleS1ub3QtZm9yLW91dHB1dA"}}}';
/** A Secret applied with kubectl apply, whose last-applied annotation holds its value. */
const APPLIED_VALUE = 'applied-value-not-for-output';
const GET_ALL =
  'namespaces,pods,deployments,secrets,mutatingwebhookconfigurations,validatingadmissionpolicies,' +
  'validatingadmissionpolicybindings';
/** The rights docs/operations.md lists for `check` reading the cluster. */
const READER_ROLE = (user: string) => `
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: sfd-check-reader}
rules:
  - apiGroups: [""]
    resources: [namespaces, pods, secrets]
    verbs: [list]
  - apiGroups: [apps]
    resources: [deployments]
    verbs: [list]
  - apiGroups: [admissionregistration.k8s.io]
    resources: [mutatingwebhookconfigurations, validatingadmissionpolicies, validatingadmissionpolicybindings]
    verbs: [list]
  - apiGroups: [""]
    resources: [secrets]
    resourceNames: [sfd-keys, sfd-test-webhook-tls]
    verbs: [get]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: sfd-check-reader}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: sfd-check-reader}
subjects: [{apiGroup: rbac.authorization.k8s.io, kind: User, name: ${user}}]
`;

interface AuditEvent {
  user: { username: string };
  verb: string;
  requestURI: string;
  objectRef?: { resource?: string; namespace?: string; name?: string };
  responseStatus?: { code?: number };
  responseObject?: { kind?: string; items?: { data?: unknown; metadata?: unknown }[] };
}

const target = clusterTarget();
let chart: InstalledChart;
let tlsKey = '';

test.before(async () => {
  chart = await installChart();
  await freshNamespace(NAMESPACE, { 'sfd-sidecar.io/inject': 'enabled' });
  await kubectlOk(['-n', NAMESPACE, 'delete', 'secret', 'sfd-keys']);
  await kubectlOk([
    '-n',
    NAMESPACE,
    'create',
    'secret',
    'generic',
    'sfd-keys',
    `--from-literal=keystore.json=${KEYSTORE_VALUE}`,
  ]);
  await kubectlOk(
    ['apply', '-f', '-'],
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'app-credentials', namespace: NAMESPACE },
      stringData: { password: APPLIED_VALUE },
    }),
  );
  await kubectlOk([
    '-n',
    NAMESPACE,
    'create',
    'deployment',
    'web',
    '--image=registry.example.internal/web:1.0',
    '--replicas=1',
  ]);
  if (target.controllers)
    await watchUntil<{ metadata: { name: string } }>('a pod of Deployment web', ['-n', NAMESPACE, 'pods'], (pod) =>
      pod.metadata.name.startsWith('web-'),
    );
  if (target.mode === 'envtest') {
    const tls = await getJson<{ data: Record<string, string> }>([
      '-n',
      RELEASE_NAMESPACE,
      'get',
      'secret',
      'sfd-test-webhook-tls',
    ]);
    tlsKey = tls.data['tls.key'] ?? '';
  }
  if (target.reader) await kubectlOk(['apply', '-f', '-'], READER_ROLE(target.reader.user));
});

test.after.always(async () => {
  await kubectl(['delete', 'namespace', NAMESPACE, '--wait=false']);
  await kubectl(['delete', 'clusterrolebinding,clusterrole', 'sfd-check-reader', '--ignore-not-found']);
  await chart?.uninstall();
});

/** The kubeconfig `check` reads the cluster with: the reader's where there is one. */
const readerKubeconfig = (): string => target.reader?.kubeconfig ?? target.kubeconfig;

/** The values that must appear nowhere: the key store, the applied Secret's, the injector's TLS key. */
function secretValues(): string[] {
  const pem = Buffer.from(tlsKey, 'base64').toString('utf8');
  const pemBody = pem.split('\n').find((line) => line.length > 40 && !line.startsWith('-----')) ?? '';
  return [
    KEYSTORE_VALUE,
    Buffer.from(KEYSTORE_VALUE).toString('base64'),
    'c2VjcmV0LWtleS1ub3QtZm9yLW91dHB1dA',
    APPLIED_VALUE,
    Buffer.from(APPLIED_VALUE).toString('base64'),
    ...(tlsKey ? [tlsKey.slice(0, 64), pemBody] : []),
  ].filter((value) => value !== '');
}

test.serial('check reads the cluster by kubeconfig and reports what check - reports on kubectl', async (t) => {
  const piped = await runCli(['check', '-'], { input: await kubectlOk(['get', GET_ALL, '-A', '-o', 'json']) });
  const direct = await runCli(['check'], { env: { KUBECONFIG: readerKubeconfig() } });
  t.is(direct.code, piped.code, direct.stderr);
  t.not(direct.stdout, '');
  t.is(direct.stdout, piped.stdout);
  t.is(direct.stderr, piped.stderr);
  t.regex(direct.stdout, new RegExp(`^ok\\s+key store Secret\\s+${NAMESPACE}/sfd-keys holds keystore\\.json`, 'm'));
  t.notRegex(direct.stdout, /^not checked/m);
  for (const value of secretValues()) {
    t.false(direct.stdout.includes(value), 'a Secret value in the report');
    t.false(direct.stderr.includes(value), 'a Secret value on stderr');
  }
});

test.serial('check --pod -n reads that namespace and every Deployment, as check --pod - reads kubectl', async (t) => {
  const args = ['check', '--pod', 'web', '-n', NAMESPACE];
  const piped = await runCli([...args, '-'], {
    input: await kubectlOk(['get', 'namespaces,deployments,pods', '-A', '-o', 'json']),
  });
  const direct = await runCli([...args, '--kubeconfig', target.kubeconfig]);
  t.is(direct.code, piped.code, direct.stderr);
  t.regex(direct.stdout, new RegExp(`^Deployment web in ${NAMESPACE}: the injector would`));
  t.is(direct.stdout, piped.stdout);
  t.is(direct.stderr, piped.stderr);
});

test.serial('audit reads the namespace it is given by kubeconfig, as audit - reads kubectl', async (t) => {
  const piped = await runCli(['audit', '-'], {
    input:
      (await kubectlOk(['get', 'namespace', NAMESPACE, '-o', 'json'])) +
      (await kubectlOk(['-n', NAMESPACE, 'get', 'pods,deployments,statefulsets,daemonsets', '-o', 'json'])),
  });
  const direct = await runCli(['audit', '-n', NAMESPACE, '--kubeconfig', target.kubeconfig]);
  t.is(direct.code, piped.code, direct.stderr);
  t.is(direct.stdout, piped.stdout);
  t.is(direct.stderr, piped.stderr);
});

(target.reader ? test.serial : test.skip)(
  "only Secrets' metadata crossed, and the data of the few Secrets check needs",
  async (t) => {
    const reader = target.reader!;
    const before = readFileSync(reader.auditLog, 'utf8').length;
    const run = await runCli(['check', '--kubeconfig', reader.kubeconfig]);
    t.not(run.code, 2, run.stderr);
    const events = readFileSync(reader.auditLog, 'utf8')
      .slice(before)
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as AuditEvent)
      .filter((event) => event.user.username === reader.user && event.objectRef?.resource === 'secrets');
    const lists = events.filter((event) => event.verb === 'list');
    t.true(lists.length >= 1, 'the Secrets are listed');
    for (const list of lists) {
      t.is(list.responseStatus?.code, 200);
      t.is(list.responseObject?.kind, 'PartialObjectMetadataList', list.requestURI);
      t.true((list.responseObject?.items ?? []).every((item) => item.data === undefined && item.metadata));
    }
    const listed = lists.flatMap((list) => list.responseObject?.items ?? []).length;
    const gets = events.filter((event) => event.verb === 'get');
    const got = gets.map((event) => `${event.objectRef?.namespace}/${event.objectRef?.name}`);
    t.true(got.includes(`${RELEASE_NAMESPACE}/sfd-test-webhook-tls`), got.join(' '));
    t.true(got.includes(`${NAMESPACE}/sfd-keys`), got.join(' '));
    t.false(got.includes(`${NAMESPACE}/app-credentials`));
    t.true(
      gets.every((event) => ['sfd-keys', 'sfd-test-webhook-tls'].includes(event.objectRef?.name ?? '')),
      got.join(' '),
    );
    t.true(gets.length < listed, `${gets.length} Secrets read of ${listed} listed`);
    t.deepEqual(
      events.filter((event) => event.verb !== 'list' && event.verb !== 'get').map((event) => event.verb),
      [],
    );
    t.log(`${listed} Secrets listed as metadata, ${gets.length} read: ${got.join(', ')}`);
  },
);

(target.reader ? test.serial : test.skip)(
  'a user without the rights is told which verb on which resource to ask for, exit 2',
  async (t) => {
    await kubectlOk(['delete', 'clusterrolebinding', 'sfd-check-reader']);
    try {
      const run = await runCli(['check', '--kubeconfig', target.reader!.kubeconfig]);
      t.is(run.code, 2);
      t.regex(
        run.stderr,
        new RegExp(
          "^sfd-sidecar check: cannot list (\\w+) at the cluster scope as context test's user \\(403 Forbidden\\): " +
            'ask for list on \\1 at the cluster scope\\n$',
        ),
      );
      const audit = await runCli(['audit', '--kubeconfig', target.reader!.kubeconfig]);
      t.is(audit.code, 2);
      t.regex(
        audit.stderr,
        /cannot list \w+ at the cluster scope .*\(403 Forbidden\): (add -n NS or )?ask for list on/,
      );
      t.notRegex(audit.stderr, /\n\s+at /);
    } finally {
      await kubectlOk(['apply', '-f', '-'], READER_ROLE(target.reader!.user));
    }
  },
);
