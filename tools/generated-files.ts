// Every generated file of the repository and its content, derived from the code or from one source file.
import { CHART_YAML, chartYaml } from './chart-changes.js';
import { chartReadme } from './chart-readme.js';
import { chartValuesSchema } from './chart-values-schema.js';
import { configurationDoc } from './configuration-doc.js';
import { injectionContract } from './injection-contract.js';
import { injectionReference } from './injection-reference.js';
import { componentPatch } from './kustomize-component.js';
import { monitoringCopies } from './monitoring-copies.js';
import { keystoreJsonSchema } from '../src/keys/keystore-schema.js';

export function generatedFiles(root: string): Record<string, string> {
  return {
    'helm/sfd-sidecar/values.schema.json': `${JSON.stringify(chartValuesSchema(), null, 2)}\n`,
    'deploy/kustomize/components/sfd-sidecar/sidecar.yaml': componentPatch(),
    'helm/sfd-sidecar/files/injection-contract.json': injectionContract(),
    'docs/configuration.md': configurationDoc(),
    'docs/injection.md': injectionReference(),
    'schema/keystore.schema.json': `${JSON.stringify(keystoreJsonSchema(), null, 2)}\n`,
    ...monitoringCopies(root),
    'helm/sfd-sidecar/README.md': chartReadme(root),
    [CHART_YAML]: chartYaml(root),
  };
}
