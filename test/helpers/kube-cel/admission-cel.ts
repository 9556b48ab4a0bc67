// A model of how a Kubernetes v1.36 API server judges a ValidatingAdmissionPolicy's CEL, for tests.
//
// What it models:
// - Creation (compilePolicy): each variable in order, each validation's expression and
//   messageExpression, each matchCondition and auditAnnotation compiled as the API server's validation
//   of the policy does, with `object`, `oldObject` and `params` as dyn, `request` and `namespaceObject`
//   typed as Kubernetes declares them, `authorizer` (not in message expressions), and `variables` an
//   object whose fields are the earlier variables' types (lists and maps element-wise, objects as dyn).
//   The environment: the standard library with cross-type numeric comparisons, optional types,
//   homogeneous aggregate literals (cel-go's validator: every element of a literal of exactly the first
//   one's type), regex/duration/timestamp literal validation, strings v2, sets, lists v3, two-variable
//   comprehensions and Kubernetes' lists, regex, URL, quantity, IP, CIDR, format, semver and authorizer
//   libraries. A validation must evaluate to bool, a message expression to string. Any error refuses
//   the policy, with cel-go's message and location (`compilation failed: ERROR: <input>:1:728: ...`).
// - Type checking (typeCheckPolicy): the warnings status.typeChecking.expressionWarnings holds, for each
//   validation's expression and messageExpression, with `object` and `oldObject` typed from the Pod
//   schema (the OpenAPI v3 fixture, read as SchemaDeclType reads it), `params` from its paramKind's
//   schema (a ConfigMap's), variables compiled first and a failed one typed dyn.
// - Runtime (evaluatePolicy): evaluation of a compiled policy on a request, variables evaluated lazily
//   once, each expression's cost counted as cel-go's tracker counts it and compared with the per-call
//   limit (PerCallLimit, 1,000,000) and the per-evaluation budget the validations share with the
//   variables they trigger (RuntimeCELCostBudget, 10,000,000); the messages of the refused validations.
//
// What it does not model: the API server does not estimate a policy's cost at creation or in type
// checking, so neither does this; matchConditions are compiled but not evaluated (nor their own
// budget); the quantity, URL, IP, CIDR, format, semver and authorizer functions type-check but do not
// evaluate; message creation (`Type{...}`), the optMap/optFlatMap macros, timestamps and durations at
// runtime; the API server's names for the Pod's types carry a per-check number (Pod123456789.spec),
// which this writes as Pod; the costs of Kubernetes' own library functions are estimates.
import type { CelIssue } from './cel-ast.js';
import { compileExpression, type Compiled } from './cel-compile.js';
import { FUNCTIONS, TYPE_IDENTIFIERS } from './cel-declarations.js';
import {
  CelEvalError,
  CostLimitExceeded,
  Evaluation,
  fromJson,
  type Activation,
  type CelValue,
} from './cel-evaluator.js';
import {
  BOOL,
  DYN,
  INT,
  STRING,
  TIMESTAMP,
  formatType,
  isExactType,
  listOf,
  mapOf,
  opaqueType,
  structType,
  type CelType,
} from './cel-types.js';
import type { CheckEnvironment } from './cel-checker.js';
import { readSubset } from './openapi-subset.js';
import { schemaDeclType, type StructFields } from './schema-decl-types.js';

export const PER_CALL_LIMIT = 1_000_000;
export const RUNTIME_CEL_COST_BUDGET = 10_000_000;

export interface PolicySpec {
  readonly paramKind?: { apiVersion: string; kind: string };
  readonly matchConditions?: readonly { name: string; expression: string }[];
  readonly variables?: readonly { name: string; expression: string }[];
  readonly validations?: readonly { expression: string; message?: string; messageExpression?: string }[];
  readonly auditAnnotations?: readonly { key: string; valueExpression: string }[];
}

/** A refusal of the policy at creation, as the API server's field error reads. */
export interface CompileError {
  readonly field: string;
  readonly expression: string;
  readonly detail: string;
}

export const describeCompileError = (e: CompileError): string =>
  `${e.field}: Invalid value: ${JSON.stringify(e.expression)}: ${e.detail}`;

/** A warning of status.typeChecking.expressionWarnings. */
export interface ExpressionWarning {
  readonly fieldRef: string;
  readonly warning: string;
}

function declareStruct(structs: StructFields, name: string, fields: Record<string, CelType>): CelType {
  structs.set(name, new Map(Object.entries(fields)));
  return structType(name);
}

function admissionStructs(structs: StructFields): { request: CelType; namespace: CelType } {
  const gvk = declareStruct(structs, 'kubernetes.GroupVersionKind', { group: STRING, version: STRING, kind: STRING });
  const gvr = declareStruct(structs, 'kubernetes.GroupVersionResource', {
    group: STRING,
    version: STRING,
    resource: STRING,
  });
  const userInfo = declareStruct(structs, 'kubernetes.UserInfo', {
    username: STRING,
    uid: STRING,
    groups: listOf(STRING),
    extra: mapOf(STRING, listOf(STRING)),
  });
  const request = declareStruct(structs, 'kubernetes.AdmissionRequest', {
    kind: gvk,
    resource: gvr,
    subResource: STRING,
    requestKind: gvk,
    requestResource: gvr,
    requestSubResource: STRING,
    name: STRING,
    namespace: STRING,
    operation: STRING,
    userInfo,
    dryRun: BOOL,
    options: DYN,
  });
  const condition = declareStruct(structs, 'kubernetes.NamespaceCondition', {
    status: STRING,
    type: STRING,
    lastTransitionTime: TIMESTAMP,
    message: STRING,
    reason: STRING,
  });
  const namespace = declareStruct(structs, 'kubernetes.Namespace', {
    metadata: declareStruct(structs, 'kubernetes.NamespaceMetadata', {
      name: STRING,
      generateName: STRING,
      namespace: STRING,
      labels: mapOf(STRING, STRING),
      annotations: mapOf(STRING, STRING),
      UID: STRING,
      creationTimestamp: TIMESTAMP,
      deletionGracePeriodSeconds: INT,
      deletionTimestamp: TIMESTAMP,
      generation: INT,
      resourceVersion: STRING,
      finalizers: listOf(STRING),
    }),
    spec: declareStruct(structs, 'kubernetes.NamespaceSpec', { finalizers: listOf(STRING) }),
    status: declareStruct(structs, 'kubernetes.NamespaceStatus', { conditions: listOf(condition), phase: STRING }),
  });
  return { request, namespace };
}

/** A variable's type as the `variables` object declares it (convertCelTypeToDeclType). */
export function variableFieldType(t: CelType | undefined): CelType {
  if (!t) return DYN;
  if (t.kind === 'list') return listOf(variableFieldType(t.params[0]));
  if (t.kind === 'map') return mapOf(variableFieldType(t.params[0]), variableFieldType(t.params[1]));
  const kept = ['bool', 'bytes', 'double', 'duration', 'int', 'null_type', 'string', 'timestamp', 'uint', 'any'];
  return kept.includes(t.kind) ? t : DYN;
}

interface Declarations {
  object: CelType;
  params?: CelType;
  authorizer: boolean;
  requestResource: boolean;
}

/** The environment one expression compiles in. */
class PolicyEnvironment {
  readonly structs: StructFields = new Map();
  private readonly request: CelType;
  private readonly namespace: CelType;
  private readonly variableFields = new Map<string, CelType>();

  constructor(extraStructs?: StructFields) {
    ({ request: this.request, namespace: this.namespace } = admissionStructs(this.structs));
    for (const [name, fields] of extraStructs ?? []) this.structs.set(name, fields);
    this.structs.set('kubernetes.variables', this.variableFields);
  }

  addVariable(name: string, type: CelType | undefined): void {
    this.variableFields.set(name, variableFieldType(type));
  }

  environment(d: Declarations): CheckEnvironment {
    const variables = new Map<string, CelType>(Object.entries(TYPE_IDENTIFIERS));
    variables.set('object', d.object);
    variables.set('oldObject', d.object);
    variables.set('request', this.request);
    variables.set('namespaceObject', this.namespace);
    variables.set('variables', structType('kubernetes.variables'));
    if (d.params) variables.set('params', d.params);
    if (d.authorizer) variables.set('authorizer', opaqueType('kubernetes.authorization.Authorizer'));
    if (d.requestResource)
      variables.set('authorizer.requestResource', opaqueType('kubernetes.authorization.ResourceCheck'));
    return { variables, structs: this.structs, functions: FUNCTIONS };
  }
}

function returnTypeError(compiled: Compiled, wanted: readonly CelType[]): string | undefined {
  const t = compiled.type!;
  if (wanted.some((w) => isExactType(w, t))) return undefined;
  const names = wanted.map(formatType);
  return wanted.length === 1
    ? `must evaluate to ${names[0]} but got ${formatType(t)}`
    : `must evaluate to one of [${names.join(' ')}] but got ${formatType(t)}`;
}

/** Compiles every expression as the API server does when the policy is created; empty when it accepts it. */
export function compilePolicy(spec: PolicySpec): CompileError[] {
  const errors: CompileError[] = [];
  const hasParams = spec.paramKind !== undefined;
  const policyEnv = new PolicyEnvironment();
  const env = (authorizer: boolean, params: boolean) =>
    policyEnv.environment({ object: DYN, ...(params ? { params: DYN } : {}), authorizer, requestResource: authorizer });
  const compile = (field: string, expression: string, wanted: readonly CelType[] | undefined, e: CheckEnvironment) => {
    const compiled = compileExpression(e, expression);
    if (compiled.issues.length > 0)
      errors.push({ field, expression, detail: `compilation failed: ${compiled.message}` });
    else if (wanted) {
      const detail = returnTypeError(compiled, wanted);
      if (detail) errors.push({ field, expression, detail });
    }
    return compiled;
  };
  spec.matchConditions?.forEach((m, i) =>
    compile(`spec.matchConditions[${i}].expression`, m.expression.trim(), [BOOL], env(true, hasParams)),
  );
  spec.variables?.forEach((v, i) => {
    const compiled = compile(`spec.variables[${i}].expression`, v.expression, undefined, env(true, hasParams));
    policyEnv.addVariable(v.name, compiled.issues.length === 0 ? compiled.type : undefined);
  });
  spec.validations?.forEach((v, i) => {
    compile(`spec.validations[${i}].expression`, v.expression, [BOOL], env(true, hasParams));
    if (v.messageExpression?.trim())
      compile(`spec.validations[${i}].messageExpression`, v.messageExpression, [STRING], env(false, hasParams));
  });
  spec.auditAnnotations?.forEach((a, i) =>
    compile(
      `spec.auditAnnotations[${i}].valueExpression`,
      a.valueExpression.trim(),
      [STRING, { kind: 'null_type', params: [] }],
      env(true, hasParams),
    ),
  );
  return errors;
}

let schemaCache: { structs: StructFields; pod: CelType; configMap: CelType } | undefined;

/** The Pod's and the ConfigMap's types, from the OpenAPI fixture. */
export function resourceTypes(): { structs: StructFields; pod: CelType; configMap: CelType } {
  if (schemaCache) return schemaCache;
  const { schemas } = readSubset();
  const structs: StructFields = new Map();
  const resolve = (name: string) => schemas[name];
  const pod = schemaDeclType(schemas['io.k8s.api.core.v1.Pod']!, 'Pod', resolve, structs)!;
  const configMap = schemaDeclType(schemas['io.k8s.api.core.v1.ConfigMap']!, 'ConfigMap', resolve, structs)!;
  schemaCache = { structs, pod, configMap };
  return schemaCache;
}

/** The warnings the API server's type checking of a Pod policy records; empty when there are none. */
export function typeCheckPolicy(spec: PolicySpec): ExpressionWarning[] {
  const { structs, pod, configMap } = resourceTypes();
  const policyEnv = new PolicyEnvironment(structs);
  const hasParams = spec.paramKind !== undefined;
  const params = spec.paramKind?.kind === 'ConfigMap' && spec.paramKind.apiVersion === 'v1' ? configMap : DYN;
  const env = policyEnv.environment({
    object: pod,
    ...(hasParams ? { params } : {}),
    authorizer: true,
    requestResource: false,
  });
  for (const v of spec.variables ?? []) {
    const compiled = compileExpression(env, v.expression);
    policyEnv.addVariable(v.name, compiled.issues.length === 0 ? compiled.type : undefined);
  }
  const warnings: ExpressionWarning[] = [];
  const check = (fieldRef: string, expression: string) => {
    const compiled = compileExpression(env, expression);
    if (compiled.issues.length > 0) warnings.push({ fieldRef, warning: `/v1, Kind=Pod: ${compiled.message}\n` });
  };
  spec.validations?.forEach((v, i) => {
    check(`spec.validations[${i}].expression`, v.expression);
    if (v.messageExpression) check(`spec.validations[${i}].messageExpression`, v.messageExpression);
  });
  return warnings;
}

export interface AdmissionRequest {
  readonly object: unknown;
  readonly oldObject?: unknown;
  readonly operation?: 'CREATE' | 'UPDATE';
  readonly namespace?: string;
  readonly namespaceLabels?: Record<string, string>;
  readonly params?: unknown;
}

export interface ValidationOutcome {
  readonly expression: string;
  readonly message?: string;
  /** true admits, false refuses, an error string when evaluation failed (the failure policy decides). */
  readonly result: boolean | string;
  /** The expression's own cost (at most the per-call limit), without the variables it triggered. */
  readonly cost: number;
}

export interface PolicyEvaluation {
  readonly validations: readonly ValidationOutcome[];
  readonly variableCosts: Readonly<Record<string, number>>;
  /** What the validations and the variables they triggered spent of the runtime budget. */
  readonly totalCost: number;
  readonly withinBudget: boolean;
}

function requestValue(input: AdmissionRequest): Record<string, CelValue> {
  const namespace = input.namespace ?? 'shop';
  return {
    object: fromJson(input.object),
    oldObject: fromJson(input.oldObject ?? null),
    params: fromJson(input.params ?? null),
    request: fromJson({
      operation: input.operation ?? 'CREATE',
      namespace,
      kind: { group: '', version: 'v1', kind: 'Pod' },
      resource: { group: '', version: 'v1', resource: 'pods' },
      requestKind: { group: '', version: 'v1', kind: 'Pod' },
      requestResource: { group: '', version: 'v1', resource: 'pods' },
      name: '',
      userInfo: { username: 'tester' },
      dryRun: false,
    }),
    namespaceObject: fromJson({
      metadata: { name: namespace, ...(input.namespaceLabels ? { labels: input.namespaceLabels } : {}) },
    }),
  };
}

/**
 * Evaluates a policy on a request as the API server does, after compiling it: throws when the API
 * server would have refused the policy, since it never runs a policy it did not accept.
 */
export function evaluatePolicy(spec: PolicySpec, input: AdmissionRequest): PolicyEvaluation {
  const refused = compilePolicy(spec);
  if (refused.length > 0)
    throw new Error(`the API server refuses this policy:\n${refused.map(describeCompileError).join('\n')}`);
  const policyEnv = new PolicyEnvironment();
  const env = policyEnv.environment({ object: DYN, params: DYN, authorizer: true, requestResource: true });
  const compiledVariables = new Map<string, Compiled>();
  for (const v of spec.variables ?? []) {
    const compiled = compileExpression(env, v.expression);
    policyEnv.addVariable(v.name, compiled.type);
    compiledVariables.set(v.name, compiled);
  }
  const bindings = requestValue(input);
  const variableValues = new Map<string, CelValue | CelEvalError>();
  const variableCosts: Record<string, number> = {};
  let pendingVariableCost = 0;
  const variablesObject: Record<string, CelValue> = {};
  const activation: Activation = {
    resolve: (name) => {
      if (name !== 'variables') return bindings[name];
      return new Proxy(variablesObject, {
        get: (_target, key: string) => readVariable(key),
        has: (_target, key: string) => compiledVariables.has(key),
        getOwnPropertyDescriptor: (_target, key: string) =>
          compiledVariables.has(key) ? { configurable: true, enumerable: true, value: readVariable(key) } : undefined,
        ownKeys: () => [...compiledVariables.keys()],
      });
    },
  };
  const readVariable = (name: string): CelValue | CelEvalError => {
    if (variableValues.has(name)) return variableValues.get(name)!;
    const compiled = compiledVariables.get(name)!;
    const evaluation = new Evaluation(PER_CALL_LIMIT, compiled.types!);
    let value: CelValue | CelEvalError;
    try {
      value = evaluation.run(compiled.ast!, activation);
    } catch (error) {
      if (!(error instanceof CostLimitExceeded)) throw error;
      value = new CelEvalError(`composited variable "${name}" fails to evaluate: ${error.message}`);
    }
    variableCosts[name] = evaluation.cost;
    pendingVariableCost += evaluation.cost;
    variableValues.set(name, value);
    return value;
  };
  let remaining = RUNTIME_CEL_COST_BUDGET;
  let withinBudget = true;
  const validations: ValidationOutcome[] = [];
  for (const validation of spec.validations ?? []) {
    if (!withinBudget) break;
    const compiled = compileExpression(env, validation.expression);
    const evaluation = new Evaluation(PER_CALL_LIMIT, compiled.types!);
    let result: boolean | string;
    try {
      const value = evaluation.run(compiled.ast!, activation);
      result = value instanceof CelEvalError ? value.message : value === true;
    } catch (error) {
      if (!(error instanceof CostLimitExceeded)) throw error;
      result = error.message;
    }
    const spent = evaluation.cost + pendingVariableCost;
    pendingVariableCost = 0;
    if (spent > remaining) {
      withinBudget = false;
      result = 'validation failed due to running out of cost budget, no further validation rules will be run';
    }
    remaining -= spent;
    validations.push({ expression: validation.expression, message: validation.message, result, cost: evaluation.cost });
  }
  return { validations, variableCosts, totalCost: RUNTIME_CEL_COST_BUDGET - remaining, withinBudget };
}

export type { CelIssue };
