// `sfd-sidecar inject [FILE|-]...`: prints the manifests read (files, or standard input for `-`) with
// the sidecar added to every pod template, and says on stderr what it did to each workload. A manifest
// it injected before is brought to the sidecar asked for now (uninject, then inject), and left as it is
// when nothing differs. Any problem (a workload that cannot be injected, an unknown sfd-sidecar.io/
// annotation, a document that cannot be read) names the workload and exits 1 with nothing on stdout.
import { injectManifestText, type WorkloadOutcome } from '../manifests/edit-manifests.js';
import { annotationOf, readInjectionOptions } from '../options.js';
import { KNOWN_ANNOTATIONS } from '../decide/known-annotations.js';
import { ConfigError } from '../../config/config-error.js';
import { isDnsLabel } from '../../config/parsers.js';
import { readPolicyFile } from './policy-file.js';
import type { CliIo } from '../../command/cli-io.js';
import { readerOf, type CommandSettings } from '../../command/command-settings.js';
import { runOverManifests } from './manifest-io.js';
import { SETTINGS } from '../../config/settings.js';

const USAGE = 'usage: sfd-sidecar inject [settings] FILE|- ...   (- reads standard input)';

export async function injectCommand(
  positionals: readonly string[],
  options: Readonly<Record<string, unknown>>,
  settings: CommandSettings,
  io: CliIo,
): Promise<number> {
  if (positionals.length === 0) {
    io.stderr(`${USAGE}\n`);
    return 2;
  }
  const reader = readerOf(settings, io);
  const defaults = readInjectionOptions(reader);
  const policy = readPolicyFile(reader)?.policy;
  reader.assertValid();
  const namespace = typeof options.namespace === 'string' ? options.namespace : 'default';
  if (!isDnsLabel(namespace))
    throw new ConfigError([`--namespace: must be a namespace name (got ${JSON.stringify(namespace)})`]);
  return runOverManifests(
    positionals,
    {
      command: 'inject',
      edit: (text, source) => injectManifestText(text, source, defaults, policy && { policy, namespace }),
      describe,
      closing: (outputs) =>
        defaults.upstreamUrl === null &&
        outputs.some((output) => output.outcomes.some((o) => o.injection.outcome === 'injected'))
          ? [
              `note: no upstream was given (--upstream-url, ${SETTINGS.upstreamUrl.env}, or a pod's ` +
                `${annotationOf('upstreamUrl')}): every key store profile these pods use must name its upstreamUrl, ` +
                'or their sidecar never becomes ready',
            ]
          : [],
    },
    io,
  );
}

/** Adds the workload's lines to the report; true when it is an error. */
function describe({ workload, injection }: WorkloadOutcome, report: string[]): boolean {
  const unknown = injection.unknownAnnotations.map(
    (name) => `error: ${workload}: unknown annotation ${name} (known: ${KNOWN_ANNOTATIONS.join(', ')})`,
  );
  report.push(...unknown);
  switch (injection.outcome) {
    case 'injected':
      report.push(`injected ${workload}`, ...injection.notes.map((note) => `  note: ${note}`));
      return unknown.length > 0;
    case 'skipped':
      report.push(`left alone ${workload}: ${injection.reason}`);
      return unknown.length > 0;
    case 'refused':
      report.push(...injection.problems.map((problem) => `error: ${workload}: ${problem}`));
      return true;
  }
}
