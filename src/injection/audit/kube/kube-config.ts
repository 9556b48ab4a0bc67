// The user's kubeconfig as kubectl reads it: --kubeconfig FILE, else the files KUBECONFIG lists, else
// ~/.kube/config; the context given or the current one; and the credentials of its user (client
// certificates, tokens, exec plugins) applied to the options of a request of our own. The one module
// that loads @kubernetes/client-node, and only when a command reads a cluster, so the sidecar never does.
import type { RequestOptions } from 'node:https';
import { delimiter, join } from 'node:path';
import { KubeAccessError } from './kube-access-error.js';
import type * as ClientLibrary from '@kubernetes/client-node';

export interface KubeconfigChoice {
  /** --kubeconfig FILE. */
  readonly kubeconfig?: string;
  /** --context NAME. */
  readonly context?: string;
  /** The environment, for KUBECONFIG and HOME. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Whether a file exists, so that a missing file of KUBECONFIG's list is passed over, as kubectl does. */
  readonly exists: (path: string) => boolean;
}

export interface KubeTarget {
  readonly context: string;
  readonly server: URL;
  /** TLS and credentials of the context's user, for https.request. */
  readonly options: RequestOptions;
}

/** The files to read, in kubectl's order of precedence; throws when there is none. */
export function kubeconfigFiles(choice: KubeconfigChoice): string[] {
  if (choice.kubeconfig !== undefined) {
    if (!choice.exists(choice.kubeconfig))
      throw new KubeAccessError(`the kubeconfig ${choice.kubeconfig} (--kubeconfig) does not exist`);
    return [choice.kubeconfig];
  }
  const listed = (choice.env.KUBECONFIG ?? '').split(delimiter).filter((file) => file !== '');
  if (listed.length > 0) {
    const present = listed.filter(choice.exists);
    if (present.length === 0)
      throw new KubeAccessError(`no kubeconfig: none of the files KUBECONFIG lists exists (${listed.join(', ')})`);
    return present;
  }
  const home = choice.env.HOME ?? choice.env.USERPROFILE;
  const fallback = home ? join(home, '.kube', 'config') : null;
  if (fallback === null || !choice.exists(fallback))
    throw new KubeAccessError(
      `no kubeconfig: ${fallback ?? '~/.kube/config'} does not exist and KUBECONFIG is not set; ` +
        'give --kubeconfig FILE, or read what kubectl prints from a file: sfd-sidecar COMMAND FILE|-',
    );
  return [fallback];
}

/** The context's server and the options that carry its user's credentials; throws KubeAccessError. */
export async function openKubeconfig(choice: KubeconfigChoice): Promise<KubeTarget> {
  const files = kubeconfigFiles(choice);
  const { KubeConfig } = await loadClientLibrary();
  const config = new KubeConfig();
  for (const [index, file] of files.entries()) {
    const next = index === 0 ? config : new KubeConfig();
    try {
      next.loadFromFile(file);
      // The first file that names a current context decides it, as kubectl merges.
      if (next !== config) config.mergeConfig(next, config.getCurrentContext() !== '');
    } catch (error) {
      throw new KubeAccessError(`cannot read the kubeconfig ${file}: ${messageOf(error)}`);
    }
  }
  const where = files.join(', ');
  const names = config.getContexts().map((context) => context.name);
  const context = choice.context ?? config.getCurrentContext();
  if (!context)
    throw new KubeAccessError(
      `the kubeconfig ${where} sets no current context: give --context NAME (${names.join(', ') || 'it has none'})`,
    );
  if (config.getContextObject(context) === null)
    throw new KubeAccessError(
      `context ${context} is not in the kubeconfig ${where}` +
        (names.length > 0 ? `: its contexts are ${names.join(', ')}` : ': it has no context'),
    );
  config.setCurrentContext(context);
  const cluster = config.getCurrentCluster();
  if (cluster === null)
    throw new KubeAccessError(`context ${context} names a cluster that is not in the kubeconfig ${where}`);
  let server: URL;
  try {
    server = new URL(cluster.server);
  } catch {
    throw new KubeAccessError(`the server of context ${context} is not a URL: ${JSON.stringify(cluster.server)}`);
  }
  const options: RequestOptions = {};
  try {
    await config.applyToHTTPSOptions(options);
  } catch (error) {
    throw new KubeAccessError(`cannot get the credentials of context ${context}: ${messageOf(error)}`);
  }
  return { context, server, options };
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * The library is optional: the image, which never reads a cluster, is built without it. Without it a
 * command says how to read the cluster instead.
 */
async function loadClientLibrary(): Promise<typeof ClientLibrary> {
  try {
    return await import('@kubernetes/client-node');
  } catch (error) {
    // Only an absent package is the installation's choice; any other failure is a defect to report.
    if ((error as { code?: unknown }).code !== 'ERR_MODULE_NOT_FOUND') throw error;
    throw new KubeAccessError(
      'reading the cluster needs the optional package @kubernetes/client-node, which this installation left ' +
        'out; read what kubectl prints instead: kubectl get ... -o json | sfd-sidecar COMMAND -',
    );
  }
}
