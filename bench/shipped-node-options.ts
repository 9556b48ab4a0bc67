// The Node options the container image runs the sidecar with (the runtime stage's ENV NODE_OPTIONS in
// the Dockerfile), so that the benchmark and the soak measure the sidecar as shipped, heap settings
// included, from the one place that defines them.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export function shippedNodeOptions(root: string): string {
  const dockerfile = readFileSync(join(root, 'Dockerfile'), 'utf8');
  const runtime = dockerfile.slice(dockerfile.search(/^FROM .* AS runtime$/m));
  const match = /^ENV NODE_OPTIONS=(?:"([^"]*)"|(\S+))$/m.exec(runtime);
  if (!match) throw new Error('the Dockerfile runtime stage sets no NODE_OPTIONS');
  return match[1] ?? match[2]!;
}
