// The cluster the tier runs against, through the real clients: kubectl and helm with the kubeconfig
// the runner gives (SFD_TEST_KUBECONFIG), and how the injector is reached there (SFD_TEST_CLUSTER):
// `envtest`, a bare API server whose webhooks the tier points at a local injector, or `cluster`, where
// the chart's own injector runs in pods.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { kubeTool } from '../k8s-tools.js';
import { REPO_ROOT } from '../tools.js';

const run = promisify(execFile);

export type ClusterMode = 'envtest' | 'cluster';

export interface ClusterTarget {
  readonly kubeconfig: string;
  readonly mode: ClusterMode;
  /** Whether controllers run: a ReplicaSet makes its pods, the policy's type check is reported. */
  readonly controllers: boolean;
  /** Whether a node runs pods. */
  readonly nodes: boolean;
}

export function clusterTarget(): ClusterTarget {
  const kubeconfig = process.env.SFD_TEST_KUBECONFIG;
  if (!kubeconfig) throw new Error('SFD_TEST_KUBECONFIG is not set: run the cluster tier with npm run test:cluster');
  return {
    kubeconfig,
    mode: process.env.SFD_TEST_CLUSTER === 'envtest' ? 'envtest' : 'cluster',
    controllers: process.env.SFD_TEST_CONTROLLERS !== 'false',
    nodes: process.env.SFD_TEST_NODES === 'true',
  };
}

export interface Ran {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

async function tool(name: 'kubectl' | 'helm', args: readonly string[], input?: string): Promise<Ran> {
  const { kubeconfig } = clusterTarget();
  const child = run(kubeTool(name), ['--kubeconfig', kubeconfig, ...args], {
    cwd: REPO_ROOT,
    maxBuffer: 64 * 1024 * 1024,
    timeout: 300_000,
  });
  if (input !== undefined) child.child.stdin!.end(input);
  try {
    const { stdout, stderr } = await child;
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return {
      code: typeof failed.code === 'number' ? failed.code : 1,
      stdout: failed.stdout ?? '',
      stderr: failed.stderr ?? '',
    };
  }
}

export const kubectl = (args: readonly string[], input?: string): Promise<Ran> => tool('kubectl', args, input);
export const helm = (args: readonly string[]): Promise<Ran> => tool('helm', args);

/** kubectl that must succeed; its stdout. */
export async function kubectlOk(args: readonly string[], input?: string): Promise<string> {
  const ran = await kubectl(args, input);
  if (ran.code !== 0) throw new Error(`kubectl ${args.join(' ')}: ${ran.stderr}`);
  return ran.stdout;
}

export async function getJson<T>(args: readonly string[]): Promise<T> {
  return JSON.parse(await kubectlOk([...args, '-o', 'json'])) as T;
}

/** Waits for `check` to hold, polling; the last value it saw otherwise, in the error. */
export async function eventuallyIn<T>(
  what: string,
  probe: () => Promise<T>,
  holds: (value: T) => boolean,
  ms = 120_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  let value = await probe();
  while (!holds(value)) {
    if (Date.now() > deadline) throw new Error(`${what} within ${ms / 1000} s; last seen: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
    value = await probe();
  }
  return value;
}

/**
 * A namespace of the test's, made anew, with its `default` service account (the controllers make it;
 * a bare API server has none, and the ServiceAccount admission plugin refuses pods without it) and a
 * key store Secret named as the documented install names it.
 */
export async function freshNamespace(name: string, labels: Record<string, string> = {}): Promise<string> {
  await kubectl(['delete', 'namespace', name, '--ignore-not-found', '--wait=true', '--timeout=120s']);
  const labelled = Object.entries(labels).map(([key, value]) => `${key}=${value}`);
  await kubectlOk(['create', 'namespace', name]);
  if (labelled.length > 0) await kubectlOk(['label', 'namespace', name, ...labelled]);
  const hasAccount = async () => (await kubectl(['-n', name, 'get', 'serviceaccount', 'default'])).code === 0;
  if (!clusterTarget().controllers) await kubectl(['-n', name, 'create', 'serviceaccount', 'default']);
  await eventuallyIn(`the default service account of ${name}`, hasAccount, (has) => has);
  await kubectlOk(['-n', name, 'create', 'secret', 'generic', 'sfd-keys', '--from-literal=keystore.json={}']);
  return name;
}
