// The checks that matter for any rendered workload with the sidecar: the signing port on loopback
// only, the key store never mounted with subPath, probes on the admin port, the restricted security
// context, an environment the sidecar itself accepts, the image's own command (its Node flags), a
// memory limit that leaves room for the image's heap cap, and an application that starts only once the
// sidecar can sign and whose last calls the sidecar still serves (native or classic).
import { rootCertificates } from 'node:tls';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ExecutionContext } from 'ava';
import { shippedNodeOptions } from '../../bench/shipped-node-options.js';
import { loadConfig } from '../../src/config/load-config.js';
import { readInstructions } from './dockerfile-runner.js';
import type { K8sObject } from './k8s-tools.js';
import { REPO_ROOT } from './tools.js';

/**
 * Memory a sidecar uses besides V8's old generation: about 50 MB resident at idle with a 10 MB heap,
 * plus the 8 MiB young generation (docs/deploying.md, The container image).
 */
const NON_OLD_SPACE_MIB = 64;

interface Container {
  name: string;
  restartPolicy?: string;
  lifecycle?: { postStart?: { exec?: { command?: string[] } } };
  env?: { name: string; value?: string; valueFrom?: unknown }[];
  ports?: { name?: string; containerPort: number }[];
  volumeMounts?: { name: string; mountPath: string; subPath?: string; readOnly?: boolean }[];
  startupProbe?: { httpGet?: { path: string; port: string | number } };
  readinessProbe?: { httpGet?: { path: string; port: string | number } };
  livenessProbe?: { httpGet?: { path: string; port: string | number } };
  securityContext?: Record<string, unknown>;
  resources?: { limits?: { memory?: string } };
  command?: string[];
  args?: string[];
}

interface PodSpec {
  terminationGracePeriodSeconds?: number;
  initContainers?: Container[];
  containers: Container[];
  securityContext?: Record<string, unknown>;
  volumes?: { name: string }[];
}

/** Node in the distroless runtime image (its entrypoint). */
const DISTROLESS_NODE = '/nodejs/bin/node';

/** The absolute path of the script the image's CMD runs: the runtime stage's WORKDIR and the CMD's script. */
export function imageScript(): string {
  const instructions = readInstructions(readFileSync(join(REPO_ROOT, 'Dockerfile'), 'utf8'));
  const runtime = instructions.slice(instructions.findLastIndex((i) => i.keyword === 'FROM'));
  const workdir = runtime.findLast((i) => i.keyword === 'WORKDIR')!.args;
  const script = (JSON.parse(runtime.find((i) => i.keyword === 'CMD')!.args) as string[]).find((arg) =>
    arg.endsWith('.js'),
  )!;
  return `${workdir}/${script}`;
}

/** Runs every check on the sidecar of a Deployment; returns where the sidecar was found. */
export function checkSidecarWorkload(
  t: ExecutionContext,
  deployment: K8sObject,
  expectedMode: 'native' | 'classic',
): Container {
  return checkSidecarPod(
    t,
    (deployment as unknown as { spec: { template: { spec: PodSpec } } }).spec.template.spec,
    expectedMode,
  );
}

/** Runs every check on the sidecar of a pod spec; returns the sidecar. */
export function checkSidecarPod(t: ExecutionContext, pod: PodSpec, expectedMode: 'native' | 'classic'): Container {
  const inInit = pod.initContainers?.find((c) => c.name === 'sfd-sidecar');
  const inMain = pod.containers.find((c) => c.name === 'sfd-sidecar');
  const sidecar = (inInit ?? inMain)!;
  t.truthy(sidecar, 'the sidecar container is present');
  if (expectedMode === 'native') {
    t.truthy(inInit, 'native: an init container');
    t.is(inInit?.restartPolicy, 'Always', 'native: restartPolicy Always');
    t.is(sidecar.lifecycle, undefined, 'native: Kubernetes itself starts the application once the sidecar is ready');
  } else {
    t.truthy(inMain, 'classic: an ordinary container');
    t.is(inMain?.restartPolicy, undefined);
    // The kubelet starts containers in order and the next one only after a postStart hook returns.
    t.is(pod.containers[0]?.name, 'sfd-sidecar', 'classic: the sidecar is the first container');
    const hook = sidecar.lifecycle?.postStart?.exec?.command ?? [];
    t.deepEqual(
      hook.slice(0, 3),
      [DISTROLESS_NODE, imageScript(), 'wait-ready'],
      "classic: a postStart hook runs the image's wait-ready",
    );
  }
  const env = Object.fromEntries(
    (sidecar.env ?? []).filter((e) => e.value !== undefined).map((e) => [e.name, e.value!]),
  );
  t.regex(env.SFD_LISTEN ?? '', /^127\.0\.0\.1:\d+$/, 'the signing port is bound to loopback only');
  const adminPort = Number((env.SFD_ADMIN_LISTEN ?? '').split(':').pop());
  const adminName = sidecar.ports?.find((p) => p.containerPort === adminPort)?.name;
  t.truthy(adminName, 'the admin port is a named container port');
  t.false(
    (sidecar.ports ?? []).some((p) => p.containerPort === Number(env.SFD_LISTEN?.split(':').pop())),
    'the signing port is not a container port',
  );
  for (const probe of [sidecar.startupProbe, sidecar.readinessProbe, sidecar.livenessProbe])
    t.is(probe?.httpGet?.port, adminName, 'probes on the admin port');
  t.is(sidecar.startupProbe?.httpGet?.path, '/readyz');
  for (const mount of sidecar.volumeMounts ?? []) {
    t.is(mount.subPath, undefined, `${mount.name} is not mounted with subPath`);
    // The one writable volume, when the relay keeps invalid events, is the dead-letter directory itself.
    if (mount.mountPath === env.SFD_NOTIFY_DEAD_LETTER_DIR) t.falsy(mount.readOnly, `${mount.name} is writable`);
    else t.true(mount.readOnly, `${mount.name} is read-only`);
  }
  const keystoreMount = (sidecar.volumeMounts ?? []).find((m) => env.SFD_KEYSTORE_FILE?.startsWith(`${m.mountPath}/`));
  t.truthy(keystoreMount, 'the key store is in a mounted directory');
  t.is(keystoreMount?.subPath, undefined, 'mounted without subPath');
  const context = sidecar.securityContext ?? {};
  t.like(context, {
    runAsNonRoot: true,
    allowPrivilegeEscalation: false,
    readOnlyRootFilesystem: true,
    capabilities: { drop: ['ALL'] },
  });
  const seccomp = (context.seccompProfile ?? pod.securityContext?.seccompProfile) as { type?: string } | undefined;
  t.is(seccomp?.type, 'RuntimeDefault');
  // The environment as rendered must be one the sidecar accepts (values from Secrets are stand-ins).
  const values = { ...env };
  for (const e of sidecar.env ?? []) if (e.valueFrom !== undefined) values[e.name] = 'stand-in-secret-value-0123456789';
  t.notThrows(
    () => loadConfig(values, { production: true, readFile: () => rootCertificates[0]! }),
    'the sidecar accepts the rendered environment',
  );
  // A classic sidecar gets SIGTERM with the application, whose last calls come after it: it serves on
  // for a while. A native one is stopped after the application and drains at once.
  const { shutdownDelayMs, shutdownTimeoutMs } = loadConfig(values, {
    production: true,
    readFile: () => rootCertificates[0]!,
  });
  if (expectedMode === 'classic') t.true(shutdownDelayMs > 0, 'classic: the sidecar serves on after SIGTERM');
  else t.is(shutdownDelayMs, 0, 'native: the drain starts at SIGTERM');
  t.true(
    (pod.terminationGracePeriodSeconds ?? 30) * 1000 >= shutdownDelayMs + shutdownTimeoutMs,
    "the pod's grace period covers the delay and the drain",
  );
  t.is(sidecar.command, undefined, "the image's entrypoint is kept");
  t.is(sidecar.args, undefined, "the image's command (with its Node flags) is kept");
  const limit = sidecar.resources?.limits?.memory;
  const oldSpaceMiB = Number(/--max-old-space-size=(\d+)/.exec(shippedNodeOptions(REPO_ROOT))?.[1]);
  t.true(oldSpaceMiB > 0, 'the image caps the old generation');
  t.true(
    limit !== undefined && mebibytes(limit) >= oldSpaceMiB + NON_OLD_SPACE_MIB,
    `memory limit ${limit} leaves room for the ${oldSpaceMiB} MiB heap cap`,
  );
  return sidecar;
}

/** A Kubernetes memory quantity in MiB (the suffixes a chart would use). */
function mebibytes(quantity: string): number {
  const match = /^(\d+)(Ki|Mi|Gi|K|M|G)?$/.exec(quantity);
  if (!match) return Number.NaN;
  const factor =
    { Ki: 1 / 1024, Mi: 1, Gi: 1024, K: 1e3 / 2 ** 20, M: 1e6 / 2 ** 20, G: 1e9 / 2 ** 20 }[match[2] ?? ''] ??
    1 / 2 ** 20;
  return Number(match[1]) * factor;
}
