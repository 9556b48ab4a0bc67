// The one injection function: a pod template in, the sidecar added as any pod needs it, with what was
// decided; the same function `inject` and the webhook call.
import test from 'ava';
import { injectPod } from '../../../src/injection/pipeline/inject-pod.js';
import type { PodTemplate } from '../../../src/injection/pod.js';
import { DEFAULTS, envOf, pod, sidecarOf } from '../../helpers/injection.js';

function injected(template: PodTemplate, defaults = DEFAULTS) {
  const result = injectPod(template, defaults, 'every-workload');
  if (result.outcome !== 'injected') throw new Error(`not injected: ${JSON.stringify(result)}`);
  return result;
}

test(
  'a native sidecar goes first among the init ' +
    'containers; the key store is mounted read-only, ' +
    'without subPath, and an empty volume hides the service account token',
  (t) => {
    const result = injected(pod({ initContainers: [{ name: 'migrate', image: 'm' }] }));
    const spec = result.template.spec;
    t.deepEqual(
      spec.initContainers!.map((c) => c.name),
      ['sfd-sidecar', 'migrate'],
    );
    const sidecar = spec.initContainers![0]!;
    t.is(sidecar.restartPolicy, 'Always');
    t.deepEqual(sidecar.volumeMounts, [
      { name: 'sfd-sidecar-keystore', mountPath: '/etc/sfd-sidecar/keys', readOnly: true },
      { name: 'sfd-sidecar-no-token', mountPath: '/var/run/secrets/kubernetes.io/serviceaccount', readOnly: true },
    ]);
    t.deepEqual(spec.volumes, [
      { name: 'sfd-sidecar-keystore', secret: { secretName: 'sfd-keys', defaultMode: 0o444 } },
      { name: 'sfd-sidecar-no-token', emptyDir: {} },
    ]);
    t.like(envOf(sidecar), {
      SFD_LISTEN: '127.0.0.1:8080',
      SFD_ADMIN_LISTEN: ':9090',
      SFD_KEYSTORE_FILE: '/etc/sfd-sidecar/keys/keystore.json',
      SFD_PROFILE: 'default',
    });
    t.is(envOf(spec.containers[0]).SFD_SIDECAR_URL, 'http://127.0.0.1:8080');
    t.like(result.template.metadata, {
      labels: { app: 'x', 'sfd-sidecar.io/injected': 'true' },
      annotations: { 'sfd-sidecar.io/status': 'injected', 'prometheus.io/port': '9090' },
    });
  },
);

test('the classic form is the first container, with a postStart wait and a shutdown delay', (t) => {
  const result = injected(pod({}, { 'sfd-sidecar.io/mode': 'classic' }));
  const sidecar = result.template.spec.containers[0]!;
  t.is(sidecar.name, 'sfd-sidecar');
  t.is(sidecar.restartPolicy, undefined);
  t.deepEqual(
    (sidecar.lifecycle as { postStart: { exec: { command: string[] } } }).postStart.exec.command.slice(2, 3),
    ['wait-ready'],
  );
  t.is(envOf(sidecar).SFD_SHUTDOWN_DELAY_MS, '5000');
  t.is(result.template.spec.initContainers, undefined);
});

test('never a port clash: a port an application declares moves the sidecar, and the move is said', (t) => {
  const result = injected(
    pod({
      containers: [
        { name: 'app', image: 'a', ports: [{ containerPort: 8080 }, { containerPort: 9090, hostPort: 9090 }] },
      ],
    }),
  );
  const sidecar = sidecarOf(result.template)!;
  t.is(envOf(sidecar).SFD_LISTEN, '127.0.0.1:18080');
  t.is(envOf(sidecar).SFD_ADMIN_LISTEN, ':19090');
  t.is(envOf(result.template.spec.containers[0]).SFD_SIDECAR_URL, 'http://127.0.0.1:18080');
  t.is(result.template.metadata?.annotations?.['sfd-sidecar.io/ports'], 'signing=18080,admin=19090');
  t.is(result.notes.filter((n) => /port (8080|9090) is declared by container app/.test(n)).length, 2);
});

test('a listen-port annotation that clashes is refused rather than moved', (t) => {
  const result = injectPod(
    pod(
      { containers: [{ name: 'app', image: 'a', ports: [{ containerPort: 7000 }] }] },
      { 'sfd-sidecar.io/listen-port': '7000' },
    ),
    DEFAULTS,
    'every-workload',
  );
  t.is(result.outcome, 'refused');
  if (result.outcome === 'refused') t.regex(result.problems[0]!, /asks for 7000, which is declared by container app/);
});

test('annotations override the defaults; bad values are named', (t) => {
  const result = injected(
    pod(
      {},
      {
        'sfd-sidecar.io/keystore-secret': 'billing-keys',
        'sfd-sidecar.io/profile': 'billing',
        'sfd-sidecar.io/upstream-url': 'https://open-api.swiftfederation.com',
        'sfd-sidecar.io/listen-port': '7070',
        'sfd-sidecar.io/signature-version': '1',
      },
    ),
  );
  const env = envOf(sidecarOf(result.template));
  t.like(env, {
    SFD_PROFILE: 'billing',
    SFD_UPSTREAM_URL: 'https://open-api.swiftfederation.com',
    SFD_LISTEN: '127.0.0.1:7070',
    SFD_SIGNATURE_VERSION: '1',
  });
  t.deepEqual((result.template.spec.volumes![0]!.secret as { secretName: string }).secretName, 'billing-keys');
  const bad = injectPod(
    pod(
      {},
      {
        'sfd-sidecar.io/listen-port': 'http',
        'sfd-sidecar.io/mode': 'ambient',
        'sfd-sidecar.io/keystore-secret': 'Not_A_Name',
      },
    ),
    DEFAULTS,
    'every-workload',
  );
  t.is(bad.outcome, 'refused');
  if (bad.outcome === 'refused') {
    t.is(bad.problems.length, 3);
    for (const name of ['listen-port', 'mode', 'keystore-secret'])
      t.true(
        bad.problems.some((p) => p.includes(`sfd-sidecar.io/${name}`)),
        name,
      );
  }
});

test('injecting twice adds one sidecar; a pod annotated "false" is left alone; opt-in pods need "true"', (t) => {
  const once = injected(pod());
  const twice = injectPod(once.template, DEFAULTS, 'every-workload');
  t.is(twice.outcome, 'skipped');
  t.is(injectPod(pod({}, { 'sfd-sidecar.io/inject': 'false' }), DEFAULTS, 'every-workload').outcome, 'skipped');
  t.is(injectPod(pod(), DEFAULTS, 'pod-asks').outcome, 'skipped');
  const labelled = { ...pod(), metadata: { labels: { 'sfd-sidecar.io/inject': 'true' } } };
  t.is(injectPod(labelled, DEFAULTS, 'pod-asks').outcome, 'injected', 'the webhook asks by label');
  t.is(injectPod(pod({}, { 'sfd-sidecar.io/inject': 'true' }), DEFAULTS, 'pod-asks').outcome, 'skipped');
  t.is(injectPod(pod({}, { 'sfd-sidecar.io/inject': 'yes' }), DEFAULTS, 'every-workload').outcome, 'refused');
});

test('a host-network pod is refused with the reason', (t) => {
  const result = injectPod(pod({ hostNetwork: true }), DEFAULTS, 'every-workload');
  t.is(result.outcome, 'refused');
  if (result.outcome === 'refused') t.regex(result.problems[0]!, /host network: there 127\.0\.0\.1 is the node's/);
});

test('unknown sfd-sidecar.io annotations are named; SFD_SIDECAR_URL already set is kept', (t) => {
  const result = injected(
    pod(
      { containers: [{ name: 'app', image: 'a', env: [{ name: 'SFD_SIDECAR_URL', value: 'http://mine' }] }] },
      { 'sfd-sidecar.io/profle': 'x' },
    ),
  );
  t.deepEqual(result.unknownAnnotations, ['sfd-sidecar.io/profle']);
  t.deepEqual(result.template.spec.containers[0]!.env, [{ name: 'SFD_SIDECAR_URL', value: 'http://mine' }]);
});

test('without a key store Secret anywhere the pod is refused, naming both ways to give one', (t) => {
  const result = injectPod(pod(), { ...DEFAULTS, keystoreSecret: null }, 'every-workload');
  t.is(result.outcome, 'refused');
  if (result.outcome === 'refused')
    t.regex(result.problems[0]!, /sfd-sidecar\.io\/keystore-secret.*--keystore-secret \(SFD_KEYSTORE_SECRET\)/);
});

test('the pod given is not changed', (t) => {
  const template = pod({ initContainers: [{ name: 'i', image: 'i' }] }, { a: 'b' });
  const copy = structuredClone(template);
  injected(template);
  t.deepEqual(template, copy);
});

test("a ConfigMap and a Secret the pod names give SFD_* settings only; the injection's own win", (t) => {
  const result = injected(
    pod(
      {},
      { 'sfd-sidecar.io/env-config-map': 'sidecar-settings', 'sfd-sidecar.io/env-secret': 'sidecar-credentials' },
    ),
  );
  const sidecar = sidecarOf(result.template)!;
  t.is(sidecar.envFrom, undefined, 'no envFrom: it would take NODE_OPTIONS, LD_PRELOAD and the like');
  const env = sidecar.env ?? [];
  const fromMap = env.filter((e) => e.valueFrom?.configMapKeyRef?.name === 'sidecar-settings');
  const fromSecret = env.filter((e) => e.valueFrom?.secretKeyRef?.name === 'sidecar-credentials');
  t.true(fromMap.some((e) => e.name === 'SFD_LOG_LEVEL' && e.valueFrom?.configMapKeyRef?.key === 'SFD_LOG_LEVEL'));
  t.true(fromSecret.some((e) => e.name === 'SFD_UPSTREAM_PROXY'));
  for (const entry of [...fromMap, ...fromSecret]) {
    t.regex(entry.name, /^SFD_[A-Z0-9_]+$/);
    t.true(entry.valueFrom?.configMapKeyRef?.optional ?? entry.valueFrom?.secretKeyRef?.optional);
  }
  for (const own of ['SFD_LISTEN', 'SFD_ADMIN_LISTEN', 'SFD_KEYSTORE_FILE', 'SFD_PROFILE', 'SFD_ENV_FILE'])
    t.false(
      [...fromMap, ...fromSecret].some((e) => e.name === own),
      `${own} never comes from the pod's objects`,
    );
  t.is(envOf(sidecar).SFD_LISTEN, '127.0.0.1:8080');
});

test('each variable is written once: with both objects named, the secret settings come from the Secret', (t) => {
  const both = sidecarOf(
    injected(pod({}, { 'sfd-sidecar.io/env-config-map': 'settings', 'sfd-sidecar.io/env-secret': 'credentials' }))
      .template,
  )!;
  const names = (both.env ?? []).map((e) => e.name);
  t.deepEqual(
    names.filter((name, index) => names.indexOf(name) !== index),
    [],
    'the API server warns about a name given twice, and apply drops one',
  );
  const source = (name: string) => {
    const from = both.env!.find((e) => e.name === name)!.valueFrom!;
    return from.secretKeyRef ? `secret ${from.secretKeyRef.name}` : `configMap ${from.configMapKeyRef!.name}`;
  };
  t.is(source('SFD_UPSTREAM_PROXY'), 'secret credentials');
  t.is(source('SFD_NOTIFY_TOKEN'), 'secret credentials');
  t.is(source('SFD_LOG_LEVEL'), 'configMap settings');
  t.is(source('SFD_UPSTREAM_TIMEOUT_MS'), 'configMap settings');
  const secretOnly = sidecarOf(injected(pod({}, { 'sfd-sidecar.io/env-secret': 'credentials' })).template)!;
  t.true(
    secretOnly.env!.some((e) => e.name === 'SFD_LOG_LEVEL' && e.valueFrom?.secretKeyRef?.name === 'credentials'),
    'the only object named gives every setting',
  );
});
