// `sfd-sidecar uninject [FILE|-]...`: prints the manifests read with exactly what `inject` added taken
// out again (the way back from an offline injection); documents without a sidecar come out byte for byte.
import { uninjectManifestText, type WorkloadOutcome } from '../manifests/edit-manifests.js';
import type { CliIo } from '../../command/cli-io.js';
import { runOverManifests } from './manifest-io.js';

const USAGE = 'usage: sfd-sidecar uninject FILE|- ...   (- reads standard input)';

export async function uninjectCommand(positionals: readonly string[], io: CliIo): Promise<number> {
  if (positionals.length === 0) {
    io.stderr(`${USAGE}\n`);
    return 2;
  }
  return runOverManifests(positionals, { command: 'uninject', edit: uninjectManifestText, describe }, io);
}

function describe({ workload, injection }: WorkloadOutcome, report: string[]): boolean {
  if (injection.outcome === 'injected') report.push(`took the sidecar out of ${workload}`);
  else if (injection.outcome === 'refused')
    report.push(...injection.problems.map((problem) => `error: ${workload}: ${problem}`));
  return injection.outcome === 'refused';
}
