// The Node lines the bench runs the Node proxies on. By default: the image's Node (24) first, whose
// figures lead, then the other supported line (22), both from the npm registry, and this machine's
// Node beside them. A line named twice is measured once. The quick form runs the first line only.
import { spawnSync } from 'node:child_process';
import { nodeVersionOf } from './bench-args.js';

export interface NodeLine {
  /** The major version, which names the line's rows (`sidecar@24`). */
  readonly line: number;
  readonly binary: string;
  readonly version: string;
}

/** The image's Node line first, then the other line still supported. */
export const DEFAULT_REGISTRY_LINES = [24, 22] as const;

/** The path of the newest Node of a major line from the npm registry (npx caches it). */
export function registryNode(major: number): string {
  const run = spawnSync('npx', ['-y', '-p', `node@${major}`, '--', 'node', '-p', 'process.execPath'], {
    encoding: 'utf8',
  });
  const path = run.stdout?.trim().split('\n').pop() ?? '';
  if (run.status !== 0 || path === '')
    throw new Error(
      `cannot fetch Node ${major} from the npm registry (${run.stderr?.trim() || run.error?.message}); ` +
        'pass the binaries with --node PATH',
    );
  return path;
}

export function resolveNodeLines(
  named: readonly string[] | null,
  machineNode: string,
  quick: boolean,
  fetchLine: (major: number) => string = registryNode,
): NodeLine[] {
  // Registry lines are fetched only when measured: the quick form never fetches the second one.
  const candidates: readonly (number | string)[] = named ?? [...DEFAULT_REGISTRY_LINES, machineNode];
  const lines: NodeLine[] = [];
  for (const candidate of quick ? candidates.slice(0, 1) : candidates) {
    const binary = typeof candidate === 'number' ? fetchLine(candidate) : candidate;
    const version = nodeVersionOf(binary);
    const line = Number(/^v(\d+)/.exec(version)![1]);
    if (!lines.some((l) => l.line === line)) lines.push({ line, binary, version });
  }
  return lines;
}
