// The chart rendered by `helm template` as the release `release` in sfd-system, parsed into objects.
import { parseAllDocuments } from 'yaml';
import { kubeTool, type K8sObject } from './k8s-tools.js';
import { runTool } from './tools.js';

export const CHART = 'helm/sfd-sidecar';

export interface Render {
  readonly objects: K8sObject[];
  readonly code: number | null;
  readonly stderr: string;
}

/** The objects `helm template` renders with these arguments (none when it fails). */
export function renderChart(args: string[], chart = CHART): Render {
  const result = runTool(kubeTool('helm'), ['template', 'release', chart, '--namespace', 'sfd-system', ...args]);
  const objects =
    result.code === 0
      ? parseAllDocuments(result.stdout)
          .map((d) => d.toJS() as K8sObject)
          .filter((o) => o !== null)
      : [];
  return { objects, code: result.code, stderr: result.stderr };
}
