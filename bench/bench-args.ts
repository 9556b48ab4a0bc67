// The benchmark's command line: `npm run bench [-- --quick] [-- --node PATH ...] [-- --operations FILE]`.
// `--node PATH`, once or more, names the Node binaries the Node proxies (the sidecar and the plain-node
// row) run on, the first leading, in place of the default lines (bench/node-lines.ts); the upstream and
// the load generator stay on the Node that runs the bench.
import { spawnSync } from 'node:child_process';

export interface BenchArgs {
  readonly quick: boolean;
  /** The Node binaries the proxies run on; null for the default lines. */
  readonly nodes: readonly string[] | null;
  /** A key store whose one profile limits its operations, for the `sidecar+operations` row; null: no row. */
  readonly operations: string | null;
}

const USAGE = 'usage: npm run bench [-- --quick] [-- --node PATH ...] [-- --operations FILE]';

export function parseBenchArgs(argv: readonly string[]): BenchArgs {
  let quick = false;
  const nodes: string[] = [];
  let operations: string | null = null;
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i]!;
    if (arg === '--quick') quick = true;
    else if (arg === '--node') {
      const path = argv[i + 1];
      if (path === undefined || path.startsWith('--')) throw new Error('--node needs the path of a Node binary');
      nodes.push(path);
      i += 1;
    } else if (arg === '--operations') {
      const file = argv[i + 1];
      if (file === undefined || file.startsWith('--')) throw new Error('--operations needs the path of a key store');
      operations = file;
      i += 1;
    } else throw new Error(`unknown argument ${arg}; ${USAGE}`);
  }
  return { quick, nodes: nodes.length > 0 ? nodes : null, operations };
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
