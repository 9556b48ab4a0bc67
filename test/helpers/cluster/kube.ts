// The cluster the tier runs against, through the real clients: kubectl and helm with the kubeconfig
// the runner gives (SFD_TEST_KUBECONFIG), and how the injector is reached there (SFD_TEST_CLUSTER):
// `envtest`, a bare API server whose webhooks the tier points at a local injector, or `cluster`, where
// the chart's own injector runs in pods.
import { execFile, spawn } from 'node:child_process';
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
  /** A user without rights until a test grants them, whose requests the API server's audit log records. */
  readonly reader: { readonly kubeconfig: string; readonly user: string; readonly auditLog: string } | null;
}

export function clusterTarget(): ClusterTarget {
  const kubeconfig = process.env.SFD_TEST_KUBECONFIG;
  if (!kubeconfig) throw new Error('SFD_TEST_KUBECONFIG is not set: run the cluster tier with npm run test:cluster');
  return {
    kubeconfig,
    mode: process.env.SFD_TEST_CLUSTER === 'envtest' ? 'envtest' : 'cluster',
    controllers: process.env.SFD_TEST_CONTROLLERS !== 'false',
    nodes: process.env.SFD_TEST_NODES === 'true',
    reader:
      process.env.SFD_TEST_READER_KUBECONFIG && process.env.SFD_TEST_READER_USER && process.env.SFD_TEST_AUDIT_LOG
        ? {
            kubeconfig: process.env.SFD_TEST_READER_KUBECONFIG,
            user: process.env.SFD_TEST_READER_USER,
            auditLog: process.env.SFD_TEST_AUDIT_LOG,
          }
        : null,
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

/**
 * The first object `kubectl get ARGS --watch` shows that `holds` accepts: the objects there now, then
 * each change the API server sends, so the wait ends on the change itself, never on a clock.
 */
export function watchUntil<T>(
  what: string,
  args: readonly string[],
  holds: (object: T) => boolean,
  ms = 120_000,
): Promise<T> {
  const { kubeconfig } = clusterTarget();
  const watch = spawn(kubeTool('kubectl'), ['--kubeconfig', kubeconfig, 'get', ...args, '--watch', '-o', 'json'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise<T>((resolve, reject) => {
    let text = '';
    let errors = '';
    let last: unknown;
    const done = (settle: () => void) => {
      clearTimeout(timer);
      watch.kill();
      settle();
    };
    const timer = setTimeout(
      () =>
        done(() => reject(new Error(`${what} within ${ms / 1000} s; last seen: ${JSON.stringify(last)} ${errors}`))),
      ms,
    );
    watch.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    watch.stdout.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      for (let end = objectEnd(text); end > 0; end = objectEnd(text)) {
        const object = JSON.parse(text.slice(0, end)) as T;
        text = text.slice(end);
        last = object;
        if (holds(object)) return done(() => resolve(object));
      }
    });
    watch.once('exit', (code) =>
      done(() => reject(new Error(`${what}: kubectl stopped watching (${code}): ${errors}`))),
    );
  });
}

/** Where the first whole JSON object of the text ends, or 0 while it is incomplete. */
function objectEnd(text: string): number {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index];
    if (inString) {
      if (char === '\\') index += 1;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === '{') depth += 1;
    else if (char === '}' && --depth === 0) return index + 1;
  }
  return 0;
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
  if (!clusterTarget().controllers) await kubectl(['-n', name, 'create', 'serviceaccount', 'default']);
  await watchUntil<{ metadata: { name: string } }>(
    `the default service account of ${name}`,
    ['-n', name, 'serviceaccounts'],
    (account) => account.metadata.name === 'default',
  );
  await kubectlOk(['-n', name, 'create', 'secret', 'generic', 'sfd-keys', '--from-literal=keystore.json={}']);
  return name;
}
