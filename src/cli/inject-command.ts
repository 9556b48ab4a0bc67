// `sfd-sidecar inject [FILE|-]...`: prints the manifests read (files, or standard input for `-`) with
// the sidecar added to every pod template, and says on stderr what it did to each workload. Any
// problem (a workload that cannot be injected, an unknown sfd-sidecar.io/ annotation, a document that
// cannot be read) names the workload and exits 1 with nothing on stdout: a pipe into `kubectl apply`
// then applies nothing rather than half of it.
import { describeFileProblem } from '../files/regular-file.js';
import { ANNOTATIONS } from '../inject/annotations.js';
import { injectManifestText, type InjectedText, type WorkloadOutcome } from '../inject/inject-manifests.js';
import { readInjectionOptions } from '../inject/read-injection-options.js';
import type { CliIo } from './cli-io.js';
import { readerOf, type CommandSettings } from './command-settings.js';

/** Manifests are read whole; a larger input is refused. */
const MAX_MANIFEST_BYTES = 64 * 1024 * 1024;
const USAGE = 'usage: sfd-sidecar inject [settings] FILE|- ...   (- reads standard input)';

export async function injectCommand(
  positionals: readonly string[],
  settings: CommandSettings,
  io: CliIo,
): Promise<number> {
  if (positionals.length === 0) {
    io.stderr(`${USAGE}\n`);
    return 2;
  }
  const reader = readerOf(settings, io);
  const defaults = readInjectionOptions(reader);
  reader.assertValid();
  const outputs: InjectedText[] = [];
  const report: string[] = [];
  let failed = false;
  for (const source of positionals) {
    let text: string;
    try {
      text =
        source === '-' ? await io.readStdin(MAX_MANIFEST_BYTES) : await io.readFileAsync(source, MAX_MANIFEST_BYTES);
    } catch (error) {
      report.push(`error: ${source}: ${describeFileProblem(error)}`);
      failed = true;
      continue;
    }
    const injected = injectManifestText(text, source === '-' ? 'stdin' : source, defaults);
    for (const problem of injected.problems) report.push(`error: ${problem}`);
    for (const outcome of injected.outcomes) failed = describe(outcome, report) || failed;
    failed ||= injected.problems.length > 0;
    outputs.push(injected);
  }
  const injectedAny = outputs.some((output) => output.outcomes.some((o) => o.injection.outcome === 'injected'));
  if (injectedAny && defaults.upstreamUrl === null)
    report.push(
      `note: no upstream was given (--upstream-url, SFD_UPSTREAM_URL, or a pod's ${ANNOTATIONS.upstreamUrl}): ` +
        'every key store profile these pods use must name its upstreamUrl, or their sidecar never becomes ready',
    );
  io.stderr(report.map((line) => `${line}\n`).join(''));
  if (failed) {
    io.stderr('sfd-sidecar inject: nothing was written to stdout; fix the errors above and run it again\n');
    return 1;
  }
  io.stdout(joinManifests(outputs));
  return 0;
}

/** Adds the workload's lines to the report; true when it is an error. */
function describe({ workload, injection }: WorkloadOutcome, report: string[]): boolean {
  const unknown = injection.unknownAnnotations.map(
    (name) => `error: ${workload}: unknown annotation ${name} (known: ${Object.values(ANNOTATIONS).join(', ')})`,
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

/**
 * The outputs one after the other, as one stream kubectl and `inject` both read: a single input as it
 * came out (an untouched one byte for byte, final newline or not); JSON values one after the other when
 * every input was JSON; otherwise YAML documents separated by `---`, each JSON value one of them.
 */
function joinManifests(outputs: readonly InjectedText[]): string {
  if (outputs.length === 1) return outputs[0]!.documents.join('');
  const pieces = outputs.every((output) => output.format === 'json')
    ? outputs.map((output) => output.documents.join(''))
    : outputs.flatMap((output) => (output.format === 'json' ? output.documents : [output.documents.join('')]));
  const yaml = outputs.some((output) => output.format === 'yaml');
  return pieces
    .map((text, index) => {
      const ended = index < pieces.length - 1 && !text.endsWith('\n') ? `${text}\n` : text;
      return !yaml || index === 0 || /^---/.test(ended) ? ended : `---\n${ended}`;
    })
    .join('');
}
