// A pod that already carries the sidecar, as `inject` prints it for the checkout service account: what
// a pod created while no injector answers, or copied from an injected one, holds.
import { parse } from 'yaml';
import { runCli } from '../cli-process.js';
import { DEFAULTS } from '../injection.js';

/** The pod `inject` prints for the checkout account, signing as `profile` (it labels the pod as asking). */
export async function carrying(name: string, profile: string): Promise<object> {
  const app = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, labels: { app: name } },
    spec: { serviceAccountName: 'checkout', containers: [{ name: 'web', image: 'example/web:1' }] },
  };
  const printed = await runCli(
    ['inject', '--keystore-secret', 'sfd-keys', '--profile', profile, '--image', DEFAULTS.image, '-'],
    { input: JSON.stringify(app) },
  );
  if (printed.code !== 0) throw new Error(printed.stderr);
  return parse(printed.stdout) as object;
}
