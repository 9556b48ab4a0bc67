// Where `check` and `audit` read from: FILE or `-` (what kubectl prints, for offline use), or else the
// cluster itself, through the user's kubeconfig and context (--kubeconfig, KUBECONFIG, --context) as
// kubectl reads them. A cluster that cannot be read is one sentence on stderr and exit 2.
import type { CliIo } from '../../command/cli-io.js';
import { readCommandInput } from '../../command/read-input.js';
import { KubeAccessError } from '../audit/kube/kube-access-error.js';
import { kubeApi, type KubeApi } from '../audit/kube/kube-api.js';
import { openKubeconfig } from '../audit/kube/kube-config.js';
import type { KubeList } from '../audit/kube/read-cluster.js';

/** The options that choose a cluster, as the commands name them. */
export const CLUSTER_OPTIONS = ['context', 'kubeconfig'] as const;

const KUBECONFIG_MAX_BYTES = 16 * 1024 * 1024;

/** The most a command reads of a cluster's objects given as FILE|- (what kubectl prints for a large one). */
const MAX_INPUT_BYTES = 256 * 1024 * 1024;

/**
 * The text of FILE|-, or null once why it cannot be read is on stderr: among the reasons, a cluster's
 * options (`clusterOnly`) given beside it, since the input is then chosen twice.
 */
export async function readFileInput(
  command: string,
  source: string,
  options: Readonly<Record<string, unknown>>,
  clusterOnly: readonly string[],
  io: CliIo,
): Promise<string | null> {
  const given = clusterOnly.filter((name) => options[name] !== undefined);
  if (given.length === 0) return readCommandInput(io, command, source, MAX_INPUT_BYTES);
  io.stderr(
    `sfd-sidecar ${command}: ${given.map((name) => `--${name}`).join(', ')} choose the cluster to read; ` +
      'with FILE|- the input is already chosen: give one or the other\n',
  );
  return null;
}

/** The objects read from the cluster, or null once the reason it cannot be read is on stderr. */
export async function readFromCluster(
  command: string,
  options: Readonly<Record<string, unknown>>,
  io: CliIo,
  read: (api: KubeApi) => Promise<KubeList[]>,
): Promise<KubeList[] | null> {
  try {
    const target = await openKubeconfig({
      ...(typeof options.kubeconfig === 'string' ? { kubeconfig: options.kubeconfig } : {}),
      ...(typeof options.context === 'string' ? { context: options.context } : {}),
      env: io.env,
      exists: (path) => {
        try {
          return io.readFileIfExists(path, KUBECONFIG_MAX_BYTES) !== null;
        } catch {
          // There, but not a file kubectl could read either: the kubeconfig loader says why.
          return true;
        }
      },
    });
    return await read(kubeApi(target));
  } catch (error) {
    if (!(error instanceof KubeAccessError)) throw error;
    io.stderr(`sfd-sidecar ${command}: ${error.message}\n`);
    return null;
  }
}
