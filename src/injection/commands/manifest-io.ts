// What `inject` and `uninject` share: the manifests read from files and standard input (`-`), each
// edited as one text, and the outputs written as one stream; any problem names what it is about and
// leaves stdout empty, so that a pipe into `kubectl apply` applies nothing rather than half of it.
import { describeFileProblem } from '../../files/regular-file.js';
import type { InjectedText, WorkloadOutcome } from '../manifests/edit-manifests.js';
import type { CliIo } from '../../command/cli-io.js';
import { readSource } from '../../command/read-input.js';

/** Manifests are read whole; a larger input is refused. */
const MAX_MANIFEST_BYTES = 64 * 1024 * 1024;

export interface ManifestRun {
  readonly command: string;
  /** Edits one input's text; `source` names it in messages. */
  readonly edit: (text: string, source: string) => InjectedText;
  /** Adds the lines for one workload to the report; true when it is an error. */
  readonly describe: (outcome: WorkloadOutcome, report: string[]) => boolean;
  /** Lines to add once everything was read (notes on the whole run). */
  readonly closing?: (outputs: readonly InjectedText[]) => string[];
}

/** Runs the edit over every input; the exit code (0, or 1 with nothing on stdout). */
export async function runOverManifests(sources: readonly string[], run: ManifestRun, io: CliIo): Promise<number> {
  const outputs: InjectedText[] = [];
  const report: string[] = [];
  let failed = false;
  for (const source of sources) {
    let text: string;
    try {
      text = await readSource(io, source, MAX_MANIFEST_BYTES);
    } catch (error) {
      report.push(`error: ${source}: ${describeFileProblem(error)}`);
      failed = true;
      continue;
    }
    const edited = run.edit(text, source === '-' ? 'stdin' : source);
    for (const problem of edited.problems) report.push(`error: ${problem}`);
    for (const outcome of edited.outcomes) failed = run.describe(outcome, report) || failed;
    failed ||= edited.problems.length > 0;
    outputs.push(edited);
  }
  report.push(...(run.closing?.(outputs) ?? []));
  io.stderr(report.map((line) => `${line}\n`).join(''));
  if (failed) {
    io.stderr(`sfd-sidecar ${run.command}: nothing was written to stdout; fix the errors above and run it again\n`);
    return 1;
  }
  io.stdout(joinManifests(outputs));
  return 0;
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
