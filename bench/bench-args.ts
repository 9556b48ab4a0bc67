// The benchmark's command line: `npm run bench [-- --quick] [-- --node PATH]`.
// `--node PATH` runs the Node proxies (the sidecar and the plain-node row) on another Node binary, such
// as the container image's Node 24 (`npx -p node@24 -- node -p process.execPath`), while the upstream
// and the load generator stay on the Node that runs the bench.
import { spawnSync } from 'node:child_process';

export interface BenchArgs {
  readonly quick: boolean;
  /** The Node binary the proxies run on. */
  readonly proxyNode: string;
}

export function parseBenchArgs(argv: readonly string[], defaultNode: string): BenchArgs {
  let quick = false;
  let proxyNode = defaultNode;
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i]!;
    if (arg === '--quick') quick = true;
    else if (arg === '--node') {
      const path = argv[i + 1];
      if (path === undefined || path.startsWith('--')) throw new Error('--node needs the path of a Node binary');
      proxyNode = path;
      i += 1;
    } else throw new Error(`unknown argument ${arg}; usage: npm run bench [-- --quick] [-- --node PATH]`);
  }
  return { quick, proxyNode };
}

/** The version a Node binary reports, or an error that names the binary. */
export function nodeVersionOf(binary: string): string {
  const run = spawnSync(binary, ['--version'], { encoding: 'utf8' });
  const version = run.stdout?.trim() ?? '';
  if (run.status !== 0 || !/^v\d+\.\d+\.\d+/.test(version))
    throw new Error(
      `--node ${binary}: not a Node binary that runs here (${run.error?.message ?? `exit ${run.status}`})`,
    );
  return version;
}
