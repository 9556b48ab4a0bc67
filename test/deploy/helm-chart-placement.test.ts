// The chart's values for where and how the injector runs, and for objects of the operator's own, rendered
// with the real helm and each object checked against the Kubernetes schemas: the injector on its nodes'
// network (for API servers that cannot reach pod addresses), its grace period, and extraObjects.
import { cpSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { parse } from 'yaml';
import { CHART, renderChart } from '../helpers/chart-render.js';
import { kubeTool, validateObject, type K8sObject } from '../helpers/k8s-tools.js';
import { selects, type Selector } from '../helpers/label-selector.js';
import { REPO_ROOT, runTool } from '../helpers/tools.js';

const BASE = ['--set', 'keystore.existingSecret=sfd-keys'];

interface PodTerm {
  topologyKey: string;
  labelSelector: Selector;
}
interface InjectorDeployment {
  spec: {
    strategy?: { type: string; rollingUpdate?: { maxSurge: number; maxUnavailable: number } };
    template: {
      metadata: { labels: Record<string, string> };
      spec: {
        hostNetwork?: boolean;
        dnsPolicy?: string;
        terminationGracePeriodSeconds?: number;
        affinity?: {
          nodeAffinity?: unknown;
          podAntiAffinity?: {
            requiredDuringSchedulingIgnoredDuringExecution?: PodTerm[];
            preferredDuringSchedulingIgnoredDuringExecution?: unknown[];
          };
        };
        containers: { ports: { name: string; containerPort: number }[]; env: { name: string; value?: string }[] }[];
      };
    };
  };
}

/** The chart rendered with `args`, every object valid, and its injector Deployment. */
function rendered(t: { is: (a: unknown, b: unknown, m?: string) => void }, args: string[]) {
  const { objects, code, stderr } = renderChart([...BASE, ...args]);
  t.is(code, 0, stderr);
  for (const object of objects) validateObject(object);
  const deployment = objects.find((o) => o.kind === 'Deployment') as unknown as InjectorDeployment;
  return { objects, deployment, pod: deployment.spec.template.spec };
}

const lint = (args: string[]) => runTool(kubeTool('helm'), ['lint', '--strict', 'helm/sfd-sidecar', ...BASE, ...args]);

test('by default the injector runs on the pod network, with no anti-affinity it must meet', (t) => {
  const { pod, deployment } = rendered(t, []);
  t.is(pod.hostNetwork, undefined);
  t.is(pod.dnsPolicy, undefined);
  t.is(pod.affinity, undefined);
  t.is(deployment.spec.strategy, undefined);
});

test(
  'hostNetwork puts the injector on its nodes: cluster DNS kept, two replicas never on one node, the ' +
    "Service sending to the chosen port, an update stopping an old pod first, the operator's affinity kept",
  (t) => {
    const args = [
      '--set',
      'hostNetwork=true',
      '--set',
      'port=10260',
      '--set',
      'adminPort=10261',
      '--set-json',
      'affinity={"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":' +
        '[{"matchExpressions":[{"key":"node-role.kubernetes.io/infra","operator":"Exists"}]}]}},"podAntiAffinity":' +
        '{"preferredDuringSchedulingIgnoredDuringExecution":[{"weight":50,"podAffinityTerm":{"topologyKey":' +
        '"topology.kubernetes.io/zone","labelSelector":{"matchLabels":{"app":"other"}}}}]}}',
    ];
    t.is(lint(args).code, 0, lint(args).stdout);
    const { objects, pod, deployment } = rendered(t, args);
    t.true(pod.hostNetwork);
    t.is(pod.dnsPolicy, 'ClusterFirstWithHostNet');

    const required = pod.affinity!.podAntiAffinity!.requiredDuringSchedulingIgnoredDuringExecution!;
    t.is(required.length, 1);
    t.is(required[0]!.topologyKey, 'kubernetes.io/hostname');
    t.true(selects(required[0]!.labelSelector, deployment.spec.template.metadata.labels), 'it selects its own pods');
    t.false(selects(required[0]!.labelSelector, { app: 'web' }));
    t.is(pod.affinity!.podAntiAffinity!.preferredDuringSchedulingIgnoredDuringExecution!.length, 1, 'kept');
    t.truthy(pod.affinity!.nodeAffinity, 'kept');

    const container = pod.containers[0]!;
    t.deepEqual(
      container.ports.map((p) => [p.name, p.containerPort]),
      [
        ['webhook', 10260],
        ['admin', 10261],
      ],
    );
    const env = Object.fromEntries(container.env.map((e) => [e.name, e.value]));
    t.like(env, { SFD_INJECTOR_LISTEN: ':10260', SFD_ADMIN_LISTEN: ':10261' });
    const service = objects.find((o) => o.kind === 'Service') as unknown as {
      spec: { ports: { port: number; targetPort: string }[] };
    };
    t.deepEqual(
      service.spec.ports.map((p) => [p.port, p.targetPort]),
      [[443, 'webhook']],
      'the Service sends to the container port named webhook, whatever its number',
    );
    t.deepEqual(deployment.spec.strategy, { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } });

    const own = rendered(t, [...args, '--set', 'strategy.type=Recreate']);
    t.deepEqual(own.deployment.spec.strategy, { type: 'Recreate' }, 'a strategy of your own wins');
  },
);

test("on the host's network a port of the kubelet or kube-proxy is refused, and two equal ports always", (t) => {
  const kubelet = renderChart([...BASE, '--set', 'hostNetwork=true', '--set', 'port=10250']);
  t.not(kubelet.code, 0);
  t.regex(kubelet.stderr, /port 10250 is a port of the kubelet or kube-proxy on every node/);
  const proxy = renderChart([...BASE, '--set', 'hostNetwork=true', '--set', 'adminPort=10256']);
  t.regex(proxy.stderr, /adminPort 10256 is a port of the kubelet or kube-proxy/);
  t.is(renderChart([...BASE, '--set', 'port=10250']).code, 0, 'on the pod network the port is the pod’s own');
  const same = renderChart([...BASE, '--set', 'port=9090']);
  t.regex(same.stderr, /port and adminPort are both 9090/);
  const typo = renderChart([...BASE, '--set', 'hostNetwork=yes']);
  t.regex(typo.stderr, /hostNetwork/);
});

test("terminationGracePeriodSeconds sets the injector's grace period; the schema refuses a negative one", (t) => {
  t.is(rendered(t, []).pod.terminationGracePeriodSeconds, 30);
  t.is(rendered(t, ['--set', 'terminationGracePeriodSeconds=90']).pod.terminationGracePeriodSeconds, 90);
  const negative = renderChart([...BASE, '--set', 'terminationGracePeriodSeconds=-1']);
  t.not(negative.code, 0);
  t.regex(negative.stderr, /terminationGracePeriodSeconds/);
});

test('extraObjects installs manifests given as maps or strings, rendered with the release and values', (t) => {
  const args = [
    '--set-json',
    'extraObjects=[{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"{{ .Release.Name }}-notes",' +
      '"namespace":"{{ .Release.Namespace }}"},"data":{"port":"{{ .Values.port }}"}},' +
      '"apiVersion: networking.k8s.io/v1\\nkind: NetworkPolicy\\nmetadata:\\n' +
      '  name: {{ include \\"sfd-sidecar.fullname\\" . }}-egress\\nspec:\\n  podSelector:\\n    matchLabels:\\n' +
      '      {{- include \\"sfd-sidecar.selectorLabels\\" . | nindent 6 }}\\n' +
      '  policyTypes: [Egress]\\n  egress: [{}]\\n"]',
  ];
  t.is(lint(args).code, 0, lint(args).stdout);
  const { objects, deployment } = rendered(t, args);
  const notes = objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name === 'release-notes') as K8sObject & {
    data: Record<string, string>;
  };
  t.like(notes, { metadata: { namespace: 'sfd-system' }, data: { port: '8443' } });
  const egress = objects.find((o) => o.kind === 'NetworkPolicy') as K8sObject & {
    spec: { podSelector: Selector };
  };
  t.is(egress.metadata.name, 'release-sfd-sidecar-egress');
  t.true(selects(egress.spec.podSelector, deployment.spec.template.metadata.labels), 'it selects the injector');

  t.deepEqual(
    rendered(t, []).objects.filter((o) => o.metadata.name.endsWith('-notes')),
    [],
    'none by default',
  );
  const wrong = renderChart([...BASE, '--set-json', 'extraObjects=[42]']);
  t.not(wrong.code, 0);
  t.regex(wrong.stderr, /extraObjects/);
});

/** NOTES.txt as helm install prints it, rendered offline through tpl in a copy of the chart. */
function notesOf(args: string[]): string {
  const copy = join(mkdtempSync(join(tmpdir(), 'sfd-chart-')), 'sfd-sidecar');
  cpSync(join(REPO_ROOT, CHART), copy, { recursive: true });
  cpSync(join(copy, 'templates/NOTES.txt'), join(copy, 'files/NOTES.txt'));
  writeFileSync(
    join(copy, 'templates/notes-as-configmap.yaml'),
    'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: notes\ndata:\n  notes: {{ tpl (.Files.Get ' +
      '"files/NOTES.txt") . | quote }}\n',
  );
  const result = runTool(kubeTool('helm'), [
    ...['template', 'release', copy, '--namespace', 'sfd-system', ...BASE, ...args],
    ...['--show-only', 'templates/notes-as-configmap.yaml'],
  ]);
  if (result.code !== 0) throw new Error(result.stderr);
  return (parse(result.stdout) as { data: { notes: string } }).data.notes;
}

test("NOTES name the node ports, the namespace's Pod Security level, and a NetworkPolicy that cannot apply", (t) => {
  const hostNetwork = ['--set', 'hostNetwork=true', '--set', 'port=10260', '--set', 'adminPort=10261'];
  const notes = notesOf([...hostNetwork, '--set', 'networkPolicy.enabled=true']);
  t.regex(notes, /ports 10260 \(webhook\) and 10261\s+\(admin\) are open on those nodes/);
  t.regex(notes, /kubectl label namespace sfd-system pod-security\.kubernetes\.io\/enforce=privileged --overwrite/);
  t.regex(notes, /networkPolicy does not apply to pods on the host's network/);
  t.notRegex(notesOf(hostNetwork), /networkPolicy does not apply/);
  t.notRegex(notesOf([]), /nodes' network|privileged/);
});
