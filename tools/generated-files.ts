// Every generated file of the repository and its content, derived from the code.
import { chartValuesSchema } from './chart-values-schema.js';
import { componentPatch } from './kustomize-component.js';

export function generatedFiles(): Record<string, string> {
  return {
    'helm/sfd-sidecar/values.schema.json': `${JSON.stringify(chartValuesSchema(), null, 2)}\n`,
    'deploy/kustomize/components/sfd-sidecar/sidecar.yaml': componentPatch(),
  };
}
