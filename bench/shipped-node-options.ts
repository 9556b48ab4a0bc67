// The Node options the container image runs the sidecar with: the runtime stage's ENV NODE_OPTIONS and
// the Node flags at the head of its CMD (V8 flags that NODE_OPTIONS does not accept), so that the
// benchmark and the soak measure the sidecar as shipped, heap and compiler settings included, from the
// one place that defines them.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

function runtimeStage(root: string): string {
  const dockerfile = readFileSync(join(root, 'Dockerfile'), 'utf8');
  // The stage's FROM may continue over several lines (a digest-pinned image is long): its name ends one.
  return dockerfile.slice(dockerfile.search(/\bAS runtime$/m));
}

export function shippedNodeOptions(root: string): string {
  const match = /^ENV NODE_OPTIONS=(?:"([^"]*)"|(\S+))$/m.exec(runtimeStage(root));
  if (!match) throw new Error('the Dockerfile runtime stage sets no NODE_OPTIONS');
  return match[1] ?? match[2]!;
}

/** The flags the image's CMD gives node before the script (the entrypoint is node itself). */
export function shippedNodeFlags(root: string): string[] {
  const match = /^CMD (\[.*\])$/m.exec(runtimeStage(root));
  if (!match) throw new Error('the Dockerfile runtime stage has no CMD in exec form');
  const command = JSON.parse(match[1]!) as string[];
  const script = command.findIndex((argument) => !argument.startsWith('-'));
  return command.slice(0, script === -1 ? command.length : script);
}

/**
 * How the image writes its compile cache, when it does: the arguments its RUN gives the image's node (flags,
 * then the script that loads the modules), relative to the image's working directory.
 */
export function shippedCompileCacheRun(root: string): string[] | null {
  const stage = runtimeStage(root);
  if (!/^ENV NODE_COMPILE_CACHE=\S+$/m.test(stage)) return null;
  const match = /^RUN (\[.*\])$/m.exec(stage);
  if (!match) throw new Error('the Dockerfile runtime stage sets NODE_COMPILE_CACHE and writes no cache');
  return (JSON.parse(match[1]!) as string[]).slice(1);
}

/** How the image starts the sidecar, for a Node process started here: its arguments and environment. */
export interface ShippedSidecarLaunch {
  /** The Node flags of the image's CMD (for another Node proxy measured beside it). */
  readonly nodeFlags: string[];
  /** Those flags, then the built entry and `serve`. */
  readonly args: string[];
  /** Production mode (no demo) and the image's NODE_OPTIONS; the caller adds PATH and the SFD_* settings. */
  readonly env: { NODE_ENV: 'production'; NODE_OPTIONS: string };
  /** The arguments of the image's compile cache run, the script as built here; null when it writes none. */
  readonly compileCacheRun: string[] | null;
}

export function shippedSidecarLaunch(root: string): ShippedSidecarLaunch {
  const nodeFlags = shippedNodeFlags(root);
  return {
    nodeFlags,
    args: [...nodeFlags, join(root, 'dist/src/main.js'), 'serve'],
    env: { NODE_ENV: 'production', NODE_OPTIONS: shippedNodeOptions(root) },
    compileCacheRun:
      shippedCompileCacheRun(root)?.map((arg) => (arg.startsWith('dist/') ? join(root, arg) : arg)) ?? null,
  };
}
