// The chart's ValidatingAdmissionPolicy, rendered by helm and judged by the model of the API server's
// CEL in kube-cel/: compiled as the API server compiles it when the policy is created (a policy it would
// refuse is never evaluated: refusals() throws), then its variables and validations evaluated with
// `object`, `oldObject`, `request` and `namespaceObject` bound as the API server binds them. The
// defaulting the API server applies before admission is not run here.
import { evaluatePolicy } from './kube-cel/admission-cel.js';
import { parseAllDocuments } from 'yaml';
import { kubeTool } from './k8s-tools.js';
import { runTool } from './tools.js';
import type { ChainWebhook } from './admission-chain.js';
import type { Selector } from './label-selector.js';

export interface PolicySpec {
  readonly variables: { name: string; expression: string }[];
  readonly validations: { expression: string; message: string }[];
}

export function renderedPolicy(...setValues: string[]): PolicySpec {
  return renderedObject('templates/keystore-admission-policy.yaml', 'ValidatingAdmissionPolicy', setValues).spec;
}

/** The chart's mutating webhooks as the admission chain model calls them, rendered with the same values. */
export function renderedWebhooks(...setValues: string[]): ChainWebhook[] {
  const config = renderedObject('templates/webhook.yaml', 'MutatingWebhookConfiguration', setValues) as unknown as {
    webhooks: {
      name: string;
      namespaceSelector: Selector;
      objectSelector: Selector;
      clientConfig: { service: { path: string } };
    }[];
  };
  return config.webhooks.map((webhook) => ({
    name: webhook.name,
    optIn: webhook.clientConfig.service.path.endsWith('/namespace') ? 'namespace-asks' : 'pod-asks',
    namespaceSelector: webhook.namespaceSelector,
    objectSelector: webhook.objectSelector,
  }));
}

function renderedObject(template: string, kind: string, setValues: string[]): { spec: PolicySpec } {
  const object = renderedObjects(template, kind, setValues)[0];
  if (!object) throw new Error(`no ${kind} rendered`);
  return object as { spec: PolicySpec };
}

/** helm's output by its arguments: a render is a process, and the chart does not change while tests run. */
const renders = new Map<string, string>();

/** Every object of the kind the template renders with the values, in the order it renders them. */
export function renderedObjects(template: string, kind: string, setValues: readonly string[]): unknown[] {
  const args = [
    'template',
    'r',
    'helm/sfd-sidecar',
    '--namespace',
    'sfd-system',
    '--set',
    'keystore.existingSecret=sfd-keys',
  ];
  for (const value of setValues) args.push('--set', value);
  args.push('--show-only', template);
  const key = JSON.stringify(args);
  let stdout = renders.get(key);
  if (stdout === undefined) {
    const result = runTool(kubeTool('helm'), args);
    if (result.code !== 0) throw new Error(result.stderr);
    stdout = result.stdout;
    renders.set(key, stdout);
  }
  // Parsed on every call: each caller gets objects of its own to change.
  return parseAllDocuments(stdout)
    .map((d) => d.toJS() as { kind: string } | null)
    .filter((o) => o?.kind === kind);
}

export interface AdmissionInput {
  readonly object: unknown;
  readonly oldObject?: unknown;
  readonly operation?: 'CREATE' | 'UPDATE';
  readonly namespace?: string;
  /** The labels of the pod's namespace. */
  readonly namespaceLabels?: Record<string, string>;
  /** The binding's parameters: null, as the chart's policy takes none. */
  readonly params?: null;
}

/** The message of each validation the pod fails; empty when the API server would admit it. */
export function refusals(policy: PolicySpec, input: AdmissionInput): string[] {
  const evaluation = evaluatePolicy(policy, input);
  return evaluation.validations.flatMap((validation) => {
    if (typeof validation.result === 'string') throw new Error(`${validation.message}: ${validation.result}`);
    return validation.result ? [] : [validation.message ?? validation.expression];
  });
}
