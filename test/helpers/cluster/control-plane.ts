// A bare control plane for the cluster tier, started the way envtest starts one: etcd and
// kube-apiserver from KUBEBUILDER_ASSETS, on loopback, in a folder of their own, and
// kube-controller-manager when the folder holds it. Unlike envtest's defaults, the API server keeps
// the ServiceAccount admission plugin: what injection must survive is the whole admission chain as a
// cluster runs it. Webhooks reach a local injector by `url`; --enable-aggregator-routing lets the API
// server dial a Service's endpoints rather than a ClusterIP no one serves here. A second user, the
// reader, holds no rights until a test grants them; the API server's audit log records each request
// of the reader's alone (and the answer to its lists of Secrets), so that a test sees what crossed.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '../../../bench/net-utils.js';
import { makeCa, signedByCa } from './test-ca.js';

const run = promisify(execFile);

export interface ControlPlane {
  readonly kubeconfig: string;
  /** Whether kube-controller-manager runs (ReplicaSets make pods, the policy's type check is reported). */
  readonly controllers: boolean;
  /** The folder holding each process's log. */
  readonly logs: string;
  /** A kubeconfig of the reader, a user without rights (no group), named as `readerUser`. */
  readonly readerKubeconfig: string;
  readonly readerUser: string;
  /** The API server's audit log: the reader's requests, one JSON event per line. */
  readonly auditLog: string;
  /** Stops every process; keeps the folder and its logs when asked. */
  stop(keep?: boolean): Promise<void>;
}

const READER = 'sfd-test-reader';

/** Every request of the reader at Metadata level (verb, URI, status), and the answers to its lists of Secrets. */
const AUDIT_POLICY = `apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: [RequestReceived]
rules:
  - level: RequestResponse
    users: [${READER}]
    verbs: [list]
    resources: [{group: "", resources: [secrets]}]
  - level: Metadata
    users: [${READER}]
  - level: None
`;

export async function startControlPlane(assets: string): Promise<ControlPlane> {
  const dir = mkdtempSync(join(tmpdir(), 'sfd-cluster-'));
  const opensslArgs = { cwd: dir };
  await makeCa(dir, 'sfd-test-ca');
  await signedByCa(dir, 'admin', '/O=system:masters/CN=admin');
  await signedByCa(dir, 'reader', `/CN=${READER}`);
  writeFileSync(join(dir, 'audit-policy.yaml'), AUDIT_POLICY);
  await run('openssl', ['genrsa', '-out', 'sa.key', '2048'], opensslArgs);
  await run('openssl', ['rsa', '-in', 'sa.key', '-pubout', '-out', 'sa.pub'], opensslArgs);
  const [etcdClient, etcdPeer, apiPort, controllersPort] = [
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
  ];
  const children: ChildProcess[] = [];
  const start = (name: string, args: string[]): ChildProcess => {
    const log = createWriteStream(join(dir, `${name}.log`));
    const child = spawn(join(assets, name), args, { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.pipe(log);
    child.stderr.pipe(log);
    children.push(child);
    return child;
  };
  start('etcd', [
    `--data-dir=${join(dir, 'etcd')}`,
    `--listen-client-urls=http://127.0.0.1:${etcdClient}`,
    `--advertise-client-urls=http://127.0.0.1:${etcdClient}`,
    `--listen-peer-urls=http://127.0.0.1:${etcdPeer}`,
    `--initial-advertise-peer-urls=http://127.0.0.1:${etcdPeer}`,
    `--initial-cluster=default=http://127.0.0.1:${etcdPeer}`,
    '--unsafe-no-fsync=true',
  ]);
  const apiServer = start('kube-apiserver', [
    '--advertise-address=127.0.0.1',
    '--bind-address=127.0.0.1',
    `--secure-port=${apiPort}`,
    `--cert-dir=${join(dir, 'certs')}`,
    `--client-ca-file=${join(dir, 'ca.crt')}`,
    `--etcd-servers=http://127.0.0.1:${etcdClient}`,
    '--authorization-mode=RBAC',
    '--allow-privileged=true',
    `--service-account-issuer=https://127.0.0.1:${apiPort}/`,
    `--service-account-key-file=${join(dir, 'sa.pub')}`,
    `--service-account-signing-key-file=${join(dir, 'sa.key')}`,
    '--service-cluster-ip-range=10.0.0.0/24',
    '--enable-aggregator-routing=true',
    `--audit-policy-file=${join(dir, 'audit-policy.yaml')}`,
    `--audit-log-path=${join(dir, 'audit.log')}`,
    // Each event is written before its answer ends, so it is in the file once the client has the answer.
    '--audit-log-mode=blocking',
  ]);
  const kubeconfig = join(dir, 'kubeconfig');
  const config = (server: string, user: string) =>
    [
      'apiVersion: v1',
      'kind: Config',
      `clusters: [{name: test, cluster: {server: "${server}", insecure-skip-tls-verify: true}}]`,
      `users: [{name: ${user}, user: {client-certificate: ${join(dir, `${user}.crt`)}, ` +
        `client-key: ${join(dir, `${user}.key`)}}}]`,
      `contexts: [{name: test, context: {cluster: test, user: ${user}}}]`,
      'current-context: test',
      '',
    ].join('\n');
  writeFileSync(kubeconfig, config(`https://127.0.0.1:${apiPort}`, 'admin'));
  const readerKubeconfig = join(dir, 'reader.kubeconfig');
  writeFileSync(readerKubeconfig, config(`https://127.0.0.1:${apiPort}`, 'reader'));
  await waitReady(apiServer, assets, kubeconfig, dir);
  const controllerManager = join(assets, 'kube-controller-manager');
  const controllers = existsSync(controllerManager);
  if (controllers)
    start('kube-controller-manager', [
      `--kubeconfig=${kubeconfig}`,
      `--authentication-kubeconfig=${kubeconfig}`,
      `--authorization-kubeconfig=${kubeconfig}`,
      '--bind-address=127.0.0.1',
      `--secure-port=${controllersPort}`,
      `--service-account-private-key-file=${join(dir, 'sa.key')}`,
      `--root-ca-file=${join(dir, 'ca.crt')}`,
      '--leader-elect=false',
      '--controllers=*',
    ]);
  return {
    kubeconfig,
    controllers,
    readerKubeconfig,
    readerUser: READER,
    auditLog: join(dir, 'audit.log'),
    logs: dir,
    async stop(keep = false) {
      // The API server first: its graceful stop waits on etcd.
      for (const child of children.reverse()) {
        child.kill('SIGTERM');
        await new Promise((resolve) => {
          const timer = setTimeout(() => (child.kill('SIGKILL'), resolve(undefined)), 10_000);
          child.once('exit', () => (clearTimeout(timer), resolve(undefined)));
          if (child.exitCode !== null) resolve(undefined);
        });
      }
      if (!keep) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Ready once /readyz says so, asked each time the API server writes to its log (its post-start hooks
 * log as they finish), so that no clock decides; two minutes at most.
 */
function waitReady(apiServer: ChildProcess, assets: string, kubeconfig: string, dir: string): Promise<void> {
  const kubectl = existsSync(join(assets, 'kubectl')) ? join(assets, 'kubectl') : 'kubectl';
  return new Promise((resolve, reject) => {
    let asking = false;
    let again = false;
    const finish = (error?: Error) => {
      clearTimeout(timer);
      apiServer.stderr!.off('data', ask);
      if (error) reject(error);
      else resolve();
    };
    const timer = setTimeout(
      () => finish(new Error(`the API server was not ready within two minutes (logs in ${dir})`)),
      120_000,
    );
    const ask = () => {
      if (asking) return void (again = true);
      asking = true;
      run(kubectl, ['--kubeconfig', kubeconfig, 'get', '--raw', '/readyz']).then(
        () => finish(),
        () => {
          asking = false;
          if (!again) return;
          again = false;
          ask();
        },
      );
    };
    apiServer.stderr!.on('data', ask);
    apiServer.once('exit', (code) => finish(new Error(`the API server stopped (${code}); logs in ${dir}`)));
  });
}
