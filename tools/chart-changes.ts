// The chart's Chart.yaml with its Artifact Hub changes annotation written from CHANGELOG.md: the entries
// of the Unreleased section, or of the newest release once a release has moved them under its version,
// each with the kind its section names. The rest of Chart.yaml is kept as it is.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseDocument, stringify } from 'yaml';

export const CHART_YAML = 'helm/sfd-sidecar/Chart.yaml';
const CHANGES_ANNOTATION = 'artifacthub.io/changes';

/** The kind Artifact Hub gives the entries of each section of a version in CHANGELOG.md. */
const KIND_OF_SECTION: Readonly<Record<string, string>> = {
  'Changes to contracts': 'changed',
  Changed: 'changed',
  Added: 'added',
  Fixed: 'fixed',
  Removed: 'removed',
  Deprecated: 'deprecated',
  Security: 'security',
};

export interface ChartChange {
  readonly kind: string;
  readonly description: string;
}

/** The entries of one version's text: each `- ` item of its sections, its lines joined. */
function changesOf(version: string): ChartChange[] {
  const changes: ChartChange[] = [];
  let kind: string | null = null;
  let current: string[] | null = null;
  const close = (): void => {
    if (current && kind) changes.push({ kind, description: current.join(' ') });
    current = null;
  };
  for (const line of version.split('\n')) {
    const heading = /^### (.+)$/.exec(line);
    if (heading) {
      close();
      kind = KIND_OF_SECTION[heading[1]!.trim()] ?? null;
      if (kind === null) throw new Error(`CHANGELOG.md: no Artifact Hub kind for the section "${heading[1]}"`);
    } else if (line.startsWith('- ')) {
      close();
      current = [line.slice(2).trim()];
    } else if (current && line.startsWith('  ') && line.trim() !== '') {
      current.push(line.trim());
    } else if (line.trim() === '') {
      close();
    }
  }
  close();
  return changes;
}

/** The changes of the Unreleased section, or of the newest version when Unreleased has none. */
export function chartChanges(changelog: string): ChartChange[] {
  const versions = changelog.split(/^## /m).slice(1);
  for (const version of versions) {
    const changes = changesOf(version.slice(version.indexOf('\n') + 1));
    if (changes.length > 0) return changes;
  }
  return [];
}

export function chartYaml(root: string): string {
  const document = parseDocument(readFileSync(join(root, CHART_YAML), 'utf8'));
  const changes = chartChanges(readFileSync(join(root, 'CHANGELOG.md'), 'utf8'));
  // Folded below the line length yamllint allows, inside the annotation's own indentation.
  document.setIn(['annotations', CHANGES_ANNOTATION], stringify(changes, { lineWidth: 110 }));
  return document.toString({ lineWidth: 0, flowCollectionPadding: false });
}
