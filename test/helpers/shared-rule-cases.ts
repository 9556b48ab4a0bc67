// The rules the webhook (judging a pod that already carries a sidecar) and the chart's admission policy
// (judging every key store reader) both hold, each as one table of cases: a change to a copy of a pod
// as `inject` makes it, and whether the pod is admitted after it. Both statements of a rule are held to
// the same table, so neither can loosen or tighten without the other.
import { WAIT_READY_COMMAND } from '../../src/injection/contract.js';
import { appOf, envOf, mountsOf, securityOf, setEnv, sidecarOf, volumesOf, type Pod } from './hostile-pods.js';
import type { Container } from '../../src/injection/pod.js';

export interface RuleCase {
  readonly name: string;
  readonly change: (pod: Pod) => void;
  readonly admitted: boolean;
}

const admitted = (name: string, change: (pod: Pod) => void): RuleCase => ({ name, change, admitted: true });
const refused = (name: string, change: (pod: Pod) => void): RuleCase => ({ name, change, admitted: false });

/** Sets a field whatever its type says of it: a test writes what an attacker would. */
const setField = (target: object, field: string, value: unknown): void => {
  (target as Record<string, unknown>)[field] = value;
};

/** The container fields injection never sets, each with a value an attacker would give it. */
const OWN_FIELDS: Record<string, unknown> = {
  command: ['/nodejs/bin/node', '-e', 'x'],
  args: ['--inspect'],
  workingDir: '/shared',
  envFrom: [{ configMapRef: { name: 'settings' } }],
  volumeDevices: [{ name: 'disk', devicePath: '/dev/xvda' }],
  stdin: true,
  stdinOnce: true,
  tty: true,
};

const PROBES = ['livenessProbe', 'readinessProbe', 'startupProbe'];
/** The capabilities that reach another user's process. */
const REACHING = ['SYS_PTRACE', 'SETUID', 'ALL', 'cap_sys_ptrace'];

/** The app beside the sidecar in a shared process namespace, as the webhook and the policy admit it. */
const sharing = (pod: Pod, security: Container['securityContext']): void => {
  pod.spec.shareProcessNamespace = true;
  appOf(pod).securityContext = security;
};

export const SHARED_RULES: Readonly<Record<string, readonly RuleCase[]>> = {
  'the sidecar runs its image as it is, with no fields of its own': [
    admitted('the default terminationMessagePath written out', (p) => {
      sidecarOf(p).terminationMessagePath = '/dev/termination-log';
    }),
    admitted('the default terminationMessagePolicy written out', (p) => {
      sidecarOf(p).terminationMessagePolicy = 'File';
    }),
    refused('a terminationMessagePath of its own', (p) => {
      sidecarOf(p).terminationMessagePath = '/shared/log';
    }),
    refused('its log copied into the pod status', (p) => {
      sidecarOf(p).terminationMessagePolicy = 'FallbackToLogsOnError';
    }),
    ...Object.entries(OWN_FIELDS).map(([field, value]) =>
      refused(`a ${field} of its own`, (p) => setField(sidecarOf(p), field, value)),
    ),
  ],
  'the sidecar holds only the variables injection writes, in the form it writes them': [
    admitted('a setting as a literal value', (p) => setEnv(sidecarOf(p), 'SFD_LOG_LEVEL', { value: 'debug' })),
    admitted('a setting from a ConfigMap key of its own name', (p) =>
      setEnv(sidecarOf(p), 'SFD_LOG_LEVEL', { valueFrom: { configMapKeyRef: { name: 'c', key: 'SFD_LOG_LEVEL' } } }),
    ),
    admitted('a setting from a Secret key of its own name', (p) =>
      setEnv(sidecarOf(p), 'SFD_UPSTREAM_PROXY', {
        valueFrom: { secretKeyRef: { name: 'proxy', key: 'SFD_UPSTREAM_PROXY' } },
      }),
    ),
    refused('a setting from a key of another name', (p) =>
      setEnv(sidecarOf(p), 'SFD_LOG_LEVEL', { valueFrom: { configMapKeyRef: { name: 'c', key: 'level' } } }),
    ),
    refused('a setting from the key store Secret', (p) =>
      setEnv(sidecarOf(p), 'SFD_LOG_LEVEL', {
        valueFrom: { secretKeyRef: { name: 'sfd-keys', key: 'SFD_LOG_LEVEL' } },
      }),
    ),
    refused('NODE_OPTIONS', (p) => envOf(p).push({ name: 'NODE_OPTIONS', value: '--inspect=0.0.0.0:9229' })),
    refused('a settings file', (p) => envOf(p).push({ name: 'SFD_ENV_FILE', value: '/shared/.env' })),
    refused('an access key in its env', (p) => envOf(p).push({ name: 'SFD_ACCESS_KEY_ID', value: 'AK' })),
    refused('its profile from a ConfigMap', (p) =>
      setEnv(sidecarOf(p), 'SFD_PROFILE', { valueFrom: { configMapKeyRef: { name: 'c', key: 'SFD_PROFILE' } } }),
    ),
    refused('its signing listener off loopback', (p) => setEnv(sidecarOf(p), 'SFD_LISTEN', { value: '0.0.0.0:8080' })),
    refused('its key store file outside its mount', (p) =>
      setEnv(sidecarOf(p), 'SFD_KEYSTORE_FILE', { value: '/shared/keystore.json' }),
    ),
    refused('its profile given twice', (p) => envOf(p).push({ name: 'SFD_PROFILE', value: 'payroll' })),
    refused('a reference the kubelet expands', (p) => setEnv(sidecarOf(p), 'SFD_LOG_LEVEL', { value: '$(LEVEL)' })),
  ],
  'the sidecar mounts only its key store and the empty volume over the token, read-only': [
    refused('a writable emptyDir shared with the app', (p) => {
      volumesOf(p).push({ name: 'shared', emptyDir: {} });
      mountsOf(p).push({ name: 'shared', mountPath: '/shared' });
    }),
    refused('a writable key store mount', (p) => {
      mountsOf(p)[0]!.readOnly = false;
    }),
    refused('a key store mount with subPath', (p) => {
      mountsOf(p)[0]!.subPath = 'keystore.json';
    }),
    refused('the key store mounted elsewhere', (p) => {
      mountsOf(p)[0]!.mountPath = '/app';
    }),
    refused('its no-token mount taken away', (p) => {
      sidecarOf(p).volumeMounts = mountsOf(p).filter((m) => m.name !== 'sfd-sidecar-no-token');
    }),
    refused('a no-token volume the application writes', (p) => {
      const volume = volumesOf(p).find((v) => v.name === 'sfd-sidecar-no-token')!;
      delete volume.emptyDir;
      volume.persistentVolumeClaim = { claimName: 'shared' };
    }),
    refused('its key store mount with a mountPropagation of its own', (p) => {
      setField(mountsOf(p)[0]!, 'mountPropagation', 'None');
    }),
    admitted('its mounts listed the other way round', (p) => {
      sidecarOf(p).volumeMounts = [...mountsOf(p)].reverse();
    }),
  ],
  'the sidecar has httpGet probes only, and no hook but wait-ready': [
    ...PROBES.map((probe) =>
      admitted(`an httpGet ${probe}`, (p) =>
        setField(sidecarOf(p), probe, { httpGet: { path: '/ready', port: 9090 } }),
      ),
    ),
    ...PROBES.map((probe) =>
      refused(`an exec ${probe}`, (p) => setField(sidecarOf(p), probe, { exec: { command: ['cp', '/k', '/x'] } })),
    ),
    refused('a tcpSocket probe', (p) => setField(sidecarOf(p), 'startupProbe', { tcpSocket: { port: 9090 } })),
    refused('a grpc probe', (p) => setField(sidecarOf(p), 'readinessProbe', { grpc: { port: 9090 } })),
    refused('an httpGet probe with a command beside it', (p) =>
      setField(sidecarOf(p), 'livenessProbe', { httpGet: { path: '/', port: 9090 }, exec: { command: ['sh'] } }),
    ),
    admitted('the wait-ready hook', (p) => {
      sidecarOf(p).lifecycle = { postStart: { exec: { command: [...WAIT_READY_COMMAND] } } };
    }),
    refused('another postStart command', (p) => {
      sidecarOf(p).lifecycle = { postStart: { exec: { command: ['cp', '-r', '/etc/sfd-sidecar/keys', '/shared'] } } };
    }),
    refused('a preStop hook', (p) => {
      sidecarOf(p).lifecycle = { preStop: { exec: { command: ['sh'] } } };
    }),
  ],
  'the sidecar keeps the security context injection gives it': [
    admitted('the default procMount written out', (p) => setField(securityOf(p), 'procMount', 'Default')),
    admitted('a localhost seccomp profile', (p) =>
      setField(securityOf(p), 'seccompProfile', { type: 'Localhost', localhostProfile: 'sfd.json' }),
    ),
    refused('privilege escalation', (p) => setField(securityOf(p), 'allowPrivilegeEscalation', true)),
    refused('a capability added', (p) => (securityOf(p).capabilities!.add = ['NET_BIND_SERVICE'])),
    refused('capabilities not dropped', (p) => delete securityOf(p).capabilities),
    refused('all capabilities dropped in lower case', (p) => (securityOf(p).capabilities!.drop = ['all'])),
    refused('a writable root filesystem', (p) => setField(securityOf(p), 'readOnlyRootFilesystem', false)),
    refused('root', (p) => (securityOf(p).runAsUser = 0)),
    refused('runAsNonRoot taken away', (p) => delete securityOf(p).runAsNonRoot),
    refused('privileged', (p) => (securityOf(p).privileged = true)),
    refused('no security context', (p) => delete sidecarOf(p).securityContext),
    refused('SELinux options', (p) => setField(securityOf(p), 'seLinuxOptions', { type: 'spc_t' })),
    refused('Windows options', (p) => setField(securityOf(p), 'windowsOptions', { hostProcess: true })),
    refused('an unmasked /proc', (p) => setField(securityOf(p), 'procMount', 'Unmasked')),
    refused('an unconfined seccomp profile', (p) => setField(securityOf(p), 'seccompProfile', { type: 'Unconfined' })),
    refused('an unconfined AppArmor profile', (p) =>
      setField(securityOf(p), 'appArmorProfile', { type: 'Unconfined' }),
    ),
  ],
  "the sidecar runs the chart's image or its repository at a release no older": [
    admitted('a newer release', (p) => (sidecarOf(p).image = 'ghcr.io/sfd-sidecar/sfd-sidecar:9.9.9')),
    admitted('a newer X.Y tag', (p) => (sidecarOf(p).image = 'ghcr.io/sfd-sidecar/sfd-sidecar:9.9')),
    refused('an older release', (p) => (sidecarOf(p).image = 'ghcr.io/sfd-sidecar/sfd-sidecar:0.1.0')),
    refused('a tag that is no release', (p) => (sidecarOf(p).image = 'ghcr.io/sfd-sidecar/sfd-sidecar:latest')),
    refused('a digest not the chart own', (p) => {
      sidecarOf(p).image = `ghcr.io/sfd-sidecar/sfd-sidecar:9.9.9@sha256:${'b'.repeat(64)}`;
    }),
    refused('another repository', (p) => (sidecarOf(p).image = 'evil.example/sfd-sidecar:9.9.9')),
    refused('a look-alike repository prefix', (p) => {
      sidecarOf(p).image = 'ghcr.io/sfd-sidecar/sfd-sidecar-evil:9.9.9';
    }),
  ],
  'no container beside the sidecar reaches the node or the key store': [
    admitted('an app adding a baseline capability', (p) => {
      appOf(p).securityContext = { capabilities: { add: ['NET_BIND_SERVICE'] } };
    }),
    admitted('an app mounting a Secret of its own', (p) => {
      volumesOf(p).push({ name: 'own', secret: { secretName: 'app-secret' } });
      appOf(p).volumeMounts = [{ name: 'own', mountPath: '/own' }];
    }),
    refused('the host process namespace', (p) => (p.spec.hostPID = true)),
    refused('the host network', (p) => (p.spec.hostNetwork = true)),
    refused('a hostPath volume', (p) => volumesOf(p).push({ name: 'node', hostPath: { path: '/var/lib/kubelet' } })),
    refused('a gitRepo volume', (p) => volumesOf(p).push({ name: 'repo', gitRepo: { repository: 'https://x' } })),
    refused('a privileged app', (p) => (appOf(p).securityContext = { privileged: true })),
    refused('an app adding SYS_ADMIN', (p) => (appOf(p).securityContext = { capabilities: { add: ['SYS_ADMIN'] } })),
    refused('an app adding a lower-case capability', (p) => {
      appOf(p).securityContext = { capabilities: { add: ['cap_sys_admin'] } };
    }),
    refused('an app mounting the key store', (p) => {
      appOf(p).volumeMounts = [{ name: 'sfd-sidecar-keystore', mountPath: '/k' }];
    }),
    refused('an app reading it into its env', (p) => {
      appOf(p).env = [{ name: 'K', valueFrom: { secretKeyRef: { name: 'sfd-keys', key: 'keystore.json' } } }];
    }),
    refused('an app taking it whole by envFrom', (p) => (appOf(p).envFrom = [{ secretRef: { name: 'sfd-keys' } }])),
    refused('an app mounting it through a projected volume', (p) => {
      volumesOf(p).push({ name: 'all', projected: { sources: [{ secret: { name: 'sfd-keys' } }] } });
      appOf(p).volumeMounts = [{ name: 'all', mountPath: '/all' }];
    }),
  ],
  'in a shared process namespace every other container runs as another user, unable to reach it': [
    admitted('an app as a user of its own', (p) => sharing(p, { runAsUser: 1000, allowPrivilegeEscalation: false })),
    admitted("an app as the pod's user", (p) => {
      sharing(p, { allowPrivilegeEscalation: false });
      p.spec.securityContext = { runAsUser: 1000 };
    }),
    refused("an app at the sidecar's user", (p) => sharing(p, { runAsUser: 65532, allowPrivilegeEscalation: false })),
    refused('an app as root', (p) => sharing(p, { runAsUser: 0, allowPrivilegeEscalation: false })),
    refused("an app at its image's user", (p) => sharing(p, { allowPrivilegeEscalation: false })),
    refused('an app that may escalate', (p) => sharing(p, { runAsUser: 1000 })),
    ...REACHING.map((capability) =>
      refused(`an app adding ${capability}`, (p) =>
        sharing(p, { runAsUser: 1000, allowPrivilegeEscalation: false, capabilities: { add: [capability] } }),
      ),
    ),
  ],
};
