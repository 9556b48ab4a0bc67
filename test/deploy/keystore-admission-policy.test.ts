// The chart's ValidatingAdmissionPolicy, evaluated with a CEL implementation (@bufbuild/cel) as the API
// server evaluates it: its variables in order, then its validation, over pods. The sidecar `inject`
// adds passes it; a container other than the sidecar that mounts the key store Secret (as a volume or a
// projected one), reads it into its environment, or passes itself off as the sidecar, is refused. The
// API server's own CEL (its Kubernetes extensions, its cost limits) is not run here.
import { join } from 'node:path';
import test from 'ava';
import { run, isCelError } from '@bufbuild/cel';
import { parse, parseAllDocuments } from 'yaml';
import { runCli } from '../helpers/cli-process.js';
import { kubeTool } from '../helpers/k8s-tools.js';
import { REPO_ROOT, runTool } from '../helpers/tools.js';

interface Policy {
  spec: { variables: { name: string; expression: string }[]; validations: { expression: string }[] };
}

function renderedPolicy(): Policy {
  const args = ['template', 'r', 'helm/sfd-sidecar', '--set', 'keystore.existingSecret=sfd-keys'];
  const result = runTool(kubeTool('helm'), [...args, '--show-only', 'templates/keystore-admission-policy.yaml']);
  if (result.code !== 0) throw new Error(result.stderr);
  return parseAllDocuments(result.stdout)
    .map((d) => d.toJS() as { kind: string })
    .find((o) => o.kind === 'ValidatingAdmissionPolicy') as unknown as Policy;
}

const POLICY = renderedPolicy();

/** Whether the API server would admit the pod: every variable, then every validation, as CEL. */
function admits(pod: unknown): boolean {
  const variables: Record<string, unknown> = {};
  for (const variable of POLICY.spec.variables) {
    const value = run(variable.expression, { object: pod as never, variables: variables as never });
    if (isCelError(value)) throw new Error(`${variable.name}: ${String(value)}`);
    variables[variable.name] = value;
  }
  return POLICY.spec.validations.every((validation) => {
    const result = run(validation.expression, { object: pod as never, variables: variables as never });
    if (isCelError(result)) throw new Error(String(result));
    return result === true;
  });
}

const SIDECAR_IMAGE = 'ghcr.io/sfd-sidecar/sfd-sidecar:0.1.0';
const keyVolume = { name: 'keys', secret: { secretName: 'sfd-keys' } };
const sidecar = { name: 'sfd-sidecar', image: SIDECAR_IMAGE, volumeMounts: [{ name: 'keys', mountPath: '/k' }] };
const app = (extra: object = {}) => ({ name: 'web', image: 'example/web:1', ...extra });
const pod = (spec: object, annotations?: Record<string, string>) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'p', ...(annotations ? { annotations } : {}) },
  spec,
});

test('the sidecar inject adds passes the policy, in both forms', async (t) => {
  for (const mode of ['native', 'classic']) {
    const input = JSON.stringify(pod({ containers: [app()] }));
    const injected = await runCli(['inject', '--keystore-secret', 'sfd-keys', '--sidecar-mode', mode, '-'], { input });
    t.is(injected.code, 0, injected.stderr);
    t.true(admits(parse(injected.stdout)), mode);
  }
});

test('pods that never touch the key store pass', (t) => {
  t.true(admits(pod({ containers: [app()] })));
  t.true(
    admits(
      pod({
        containers: [app({ volumeMounts: [{ name: 'data', mountPath: '/d' }] })],
        volumes: [{ name: 'data', secret: { secretName: 'other' } }],
      }),
    ),
  );
});

for (const [title, spec, annotations] of [
  [
    'an app container mounting the key store',
    { containers: [sidecar, app({ volumeMounts: [{ name: 'keys', mountPath: '/k' }] })], volumes: [keyVolume] },
  ],
  [
    'an app container mounting it through a projected volume',
    {
      containers: [app({ volumeMounts: [{ name: 'all', mountPath: '/all' }] })],
      volumes: [
        { name: 'all', projected: { sources: [{ configMap: { name: 'c' } }, { secret: { name: 'sfd-keys' } }] } },
      ],
    },
  ],
  [
    'an init container mounting it',
    {
      initContainers: [app({ name: 'init', volumeMounts: [{ name: 'keys', mountPath: '/k' }] })],
      containers: [app()],
      volumes: [keyVolume],
    },
  ],
  [
    'an app reading it into an env variable',
    {
      containers: [
        app({ env: [{ name: 'K', valueFrom: { secretKeyRef: { name: 'sfd-keys', key: 'keystore.json' } } }] }),
      ],
    },
  ],
  ['an app taking it whole with envFrom', { containers: [app({ envFrom: [{ secretRef: { name: 'sfd-keys' } }] })] }],
  [
    'a container named sfd-sidecar with another image',
    { containers: [{ ...sidecar, image: 'evil/reader:1' }], volumes: [keyVolume] },
  ],
  [
    'the sidecar image with a command of its own',
    { containers: [{ ...sidecar, command: ['cat', '/k/keystore.json'] }], volumes: [keyVolume] },
  ],
  [
    'the Secret a pod names for its own sidecar',
    {
      containers: [sidecar, app({ volumeMounts: [{ name: 'mine', mountPath: '/m' }] })],
      volumes: [keyVolume, { name: 'mine', secret: { secretName: 'team-keys' } }],
    },
    { 'sfd-sidecar.io/keystore-secret': 'team-keys' },
  ],
] as const) {
  test(`refused: ${title}`, (t) => {
    t.false(admits(pod(spec, annotations)));
  });
}

test('the chart ships it only where the API exists (Kubernetes 1.30) and when enabled', (t) => {
  const render = (...extra: string[]) =>
    runTool(kubeTool('helm'), [
      'template',
      'r',
      join(REPO_ROOT, 'helm/sfd-sidecar'),
      '--set',
      'keystore.existingSecret=k',
      ...extra,
    ]).stdout;
  t.regex(render(), /kind: ValidatingAdmissionPolicy\n/);
  t.notRegex(render('--kube-version', '1.29.0', '--set', 'sidecar.mode=classic'), /kind: ValidatingAdmissionPolicy\n/);
  t.notRegex(render('--set', 'admissionPolicy.enabled=false'), /kind: ValidatingAdmissionPolicy\n/);
});
