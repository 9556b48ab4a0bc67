// The chart's ValidatingAdmissionPolicy, rendered by helm and evaluated with a CEL implementation
// (@bufbuild/cel) as the API server evaluates it: its variables in order, then each validation, with
// `object`, `oldObject`, `request` and `namespaceObject` bound as the API server binds them. What the
// API server adds (its Kubernetes CEL libraries, its type checks against the Pod schema, its cost
// limits, the defaulting before admission) is not run here.
import { isCelError, run } from '@bufbuild/cel';
import { parseAllDocuments } from 'yaml';
import { kubeTool } from './k8s-tools.js';
import { runTool } from './tools.js';

export interface PolicySpec {
  readonly variables: { name: string; expression: string }[];
  readonly validations: { expression: string; message: string }[];
}

export function renderedPolicy(...setValues: string[]): PolicySpec {
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
  const result = runTool(kubeTool('helm'), [...args, '--show-only', 'templates/keystore-admission-policy.yaml']);
  if (result.code !== 0) throw new Error(result.stderr);
  const policy = parseAllDocuments(result.stdout)
    .map((d) => d.toJS() as { kind: string; spec: PolicySpec })
    .find((o) => o.kind === 'ValidatingAdmissionPolicy');
  if (!policy) throw new Error('no ValidatingAdmissionPolicy rendered');
  return policy.spec;
}

export interface AdmissionInput {
  readonly object: unknown;
  readonly oldObject?: unknown;
  readonly operation?: 'CREATE' | 'UPDATE';
  readonly namespace?: string;
  /** The labels of the pod's namespace. */
  readonly namespaceLabels?: Record<string, string>;
}

/** The message of each validation the pod fails; empty when the API server would admit it. */
export function refusals(policy: PolicySpec, input: AdmissionInput): string[] {
  const namespace = input.namespace ?? 'shop';
  const bindings: Record<string, unknown> = {
    object: input.object,
    oldObject: input.oldObject ?? null,
    request: { operation: input.operation ?? 'CREATE', namespace },
    namespaceObject: {
      metadata: { name: namespace, ...(input.namespaceLabels ? { labels: input.namespaceLabels } : {}) },
    },
  };
  const variables: Record<string, unknown> = {};
  for (const variable of policy.variables) {
    const value = run(variable.expression, { ...bindings, variables } as never);
    if (isCelError(value)) throw new Error(`variable ${variable.name}: ${String(value)}`);
    variables[variable.name] = value;
  }
  return policy.validations.flatMap((validation) => {
    const result = run(validation.expression, { ...bindings, variables } as never);
    if (isCelError(result)) throw new Error(`${validation.message}: ${String(result)}`);
    return result === true ? [] : [validation.message];
  });
}
