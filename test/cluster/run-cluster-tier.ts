// The tier of tests a real API server judges (npm run test:cluster; npm test runs it too when a
// cluster is named). With SFD_TEST_KUBECONFIG, the cluster it names, which must hold the sidecar's
// image (kind: `kind load docker-image`); else with KUBEBUILDER_ASSETS, a bare control plane started
// from that folder as envtest starts one. Its tests run one file at a time: they share the chart's
// cluster-wide objects.
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { kubeTool } from '../helpers/k8s-tools.js';
import { startControlPlane, type ControlPlane } from '../helpers/cluster/control-plane.js';
import { REPO_ROOT } from '../helpers/tools.js';

const say = (line: string): boolean => process.stdout.write(`${line}\n`);
const ifConfigured = process.argv.includes('--if-configured');
const kubeconfig = process.env.SFD_TEST_KUBECONFIG;
const assets = process.env.KUBEBUILDER_ASSETS;

if (!kubeconfig && !assets) {
  say(
    'cluster tier: not run (set KUBEBUILDER_ASSETS to a folder holding etcd and kube-apiserver, or ' +
      'SFD_TEST_KUBECONFIG to a cluster holding the image; docs/testing.md)',
  );
  process.exit(ifConfigured ? 0 : 2);
}

let plane: ControlPlane | null = null;
const env: Record<string, string | undefined> = { ...process.env };
if (kubeconfig) {
  const nodes = spawnSync(kubeTool('kubectl'), ['--kubeconfig', kubeconfig, 'get', 'nodes', '-o', 'name'], {
    encoding: 'utf8',
  });
  Object.assign(env, { SFD_TEST_CLUSTER: 'cluster', SFD_TEST_NODES: String(nodes.stdout.trim() !== '') });
  say(`cluster tier: against ${kubeconfig}`);
} else {
  plane = await startControlPlane(assets!);
  Object.assign(env, {
    SFD_TEST_KUBECONFIG: plane.kubeconfig,
    SFD_TEST_CLUSTER: 'envtest',
    SFD_TEST_CONTROLLERS: String(plane.controllers),
    SFD_TEST_NODES: 'false',
    SFD_TEST_READER_KUBECONFIG: plane.readerKubeconfig,
    SFD_TEST_READER_USER: plane.readerUser,
    SFD_TEST_AUDIT_LOG: plane.auditLog,
  });
  say(
    `cluster tier: a control plane from ${assets}${plane.controllers ? ' with its controllers' : ' (no controllers)'}`,
  );
}

const ava = spawn(
  process.execPath,
  [join(REPO_ROOT, 'node_modules/ava/entrypoints/cli.mjs'), '--config', 'ava.cluster.config.js'],
  { cwd: REPO_ROOT, env, stdio: 'inherit' },
);
const code = await new Promise<number>((resolve) => ava.once('exit', (exit) => resolve(exit ?? 1)));
if (plane) {
  if (code !== 0) say(`cluster tier: the control plane's logs are kept in ${plane.logs}`);
  await plane.stop(code !== 0);
}
process.exit(code);
