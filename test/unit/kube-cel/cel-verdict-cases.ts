// Expressions with the verdict cel-go gives them in Kubernetes' environment. `compile` is the check at
// the policy's creation (object is dyn), `typecheck` the one against the Pod schema. A verdict is
// 'ok' or the error cel-go reports, with its 1-based column.
//
// A selection is located at its dot, an operator at its symbol, a macro's nodes (has() among them) at
// the call's opening parenthesis.
//
// Sources (Apache-2.0), Kubernetes v1.36 as vendored by openshift/microshift at commit
// 8e16b12fda5b1dccc41a6de48b3e356cc7d5048b, under deps/github.com/openshift/kubernetes/:
//   [ext] staging/src/k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel/validation_test.go
//   [tc]  staging/src/k8s.io/apiserver/pkg/admission/plugin/policy/validating/typechecking_test.go
//   [val] pkg/apis/admissionregistration/validation/validation_test.go
//   [go]  cel-go's rules in vendor/github.com/google/cel-go/checker/checker.go and cel/validator.go
//   [srv] what the API server answered for this chart's policy

export interface VerdictCase {
  readonly source: string;
  readonly mode: 'compile' | 'typecheck';
  readonly expression: string;
  readonly verdict: 'ok' | { readonly column: number; readonly message: string };
}

const ok = 'ok' as const;
const error = (column: number, message: string) => ({ column, message });

export const VERDICT_CASES: readonly VerdictCase[] = [
  // Homogeneous aggregate literals.
  {
    source: '[ext]',
    mode: 'compile',
    expression: "[1, 'a', false].filter(x, string(x) == 'a')",
    verdict: error(5, "expected type 'int' but found 'string'"),
  },
  {
    source: '[ext]',
    mode: 'compile',
    expression: "{'k1': 'a', 'k2': 1, 'k2': false} == {'k1': 'a'}",
    verdict: error(19, "expected type 'string' but found 'int'"),
  },
  {
    source: '[srv]',
    mode: 'compile',
    expression: '1 in [0, object.spec.x]',
    verdict: error(21, "expected type 'int' but found 'dyn'"),
  },
  {
    source: '[go]',
    mode: 'compile',
    expression: '1 in [0, dyn(object.spec.x)]',
    verdict: error(13, "expected type 'int' but found 'dyn'"),
  },
  { source: '[go]', mode: 'compile', expression: 'dyn(1) in [dyn(0), object.spec.x]', verdict: ok },
  { source: '[go]', mode: 'compile', expression: 'object.spec.x in [0, 1]', verdict: ok },
  { source: '[go]', mode: 'compile', expression: "[[1], []] == [[1]] && {'a': [1]} == {'b': []}", verdict: ok },
  {
    source: '[go]',
    mode: 'compile',
    expression: "['a', object.name] == []",
    verdict: error(13, "expected type 'string' but found 'dyn'"),
  },
  // Ternaries: both branches of one type unless one is dyn.
  {
    source: '[go]',
    mode: 'compile',
    expression: "(true ? 1 : 'a') == 1",
    verdict: error(7, "found no matching overload for '_?_:_' applied to '(bool, int, string)'"),
  },
  { source: '[go]', mode: 'compile', expression: '(true ? object.x : 1) == 1', verdict: ok },
  { source: '[go]', mode: 'compile', expression: '(has(object.a) ? object.a : []) == []', verdict: ok },
  // Equality: dyn compares with anything, typed values only with their own type.
  { source: '[go]', mode: 'compile', expression: "object.spec == 'x' && 1 == object.n", verdict: ok },
  {
    source: '[go]',
    mode: 'compile',
    expression: '1 == 1.0',
    verdict: error(3, "found no matching overload for '_==_' applied to '(int, double)'"),
  },
  { source: '[go]', mode: 'compile', expression: '1 < 1.5 && 2u >= 1', verdict: ok },
  {
    source: '[tc]',
    mode: 'typecheck',
    expression: 'object.metadata.name == 1',
    verdict: error(22, "found no matching overload for '_==_' applied to '(string, int)'"),
  },
  // Macros, membership, strings, sizes, negation.
  {
    source: '[go]',
    mode: 'compile',
    expression:
      "has(object.spec) && object.spec.containers.all(c, c.name.matches('^a') && !(c.name in ['x'])) && " +
      'object.spec.containers.exists(c, size(c.name) > 0) && object.spec.containers.filter(c, c.x).map(c,' +
      " c.name + '!').size() == 1",
    verdict: ok,
  },
  {
    source: '[go]',
    mode: 'compile',
    expression: "'a' in object.metadata.labels && object.metadata.labels['a'] == 'b'",
    verdict: ok,
  },
  {
    source: '[go]',
    mode: 'compile',
    expression: '[1, 2].all(x, x)',
    verdict: error(15, "expected type 'bool' but found 'int'"),
  },
  {
    source: '[go]',
    mode: 'compile',
    expression: "[1, 2].map(x, x + 'a') == []",
    verdict: error(17, "found no matching overload for '_+_' applied to '(int, string)'"),
  },
  {
    source: '[go]',
    mode: 'compile',
    expression: 'object.x.exists_one(i, i == 1) && [1].exists(i, k, k == 1)',
    verdict: ok,
  },
  {
    source: '[go]',
    mode: 'compile',
    expression: "object.a + [1] + ['x'] == []",
    verdict: error(16, "found no matching overload for '_+_' applied to '(list(int), list(string))'"),
  },
  {
    source: '[go]',
    mode: 'compile',
    expression: '1.all(x, true)',
    verdict: error(1, "expression of type 'int' cannot be range of a comprehension (must be list, map, or dynamic)"),
  },
  {
    source: '[go]',
    mode: 'compile',
    expression: 'foo == 1',
    verdict: error(1, "undeclared reference to 'foo' (in container '')"),
  },
  {
    source: '[go]',
    mode: 'compile',
    expression: "'a'.bar()",
    verdict: error(8, "undeclared reference to 'bar' (in container '')"),
  },
  { source: '[go]', mode: 'compile', expression: "request.nope == 'x'", verdict: error(8, "undefined field 'nope'") },
  {
    source: '[go]',
    mode: 'compile',
    expression: "'abc'.x == 1",
    verdict: error(6, "type 'string' does not support field selection"),
  },
  {
    source: '[go]',
    mode: 'compile',
    expression: "object.name.matches('[')",
    verdict: error(21, 'invalid matches argument'),
  },
  // Kubernetes' libraries and optional types.
  {
    source: '[go]',
    mode: 'compile',
    expression: "object.a.split(',').join('-').lowerAscii() == 'x' && [1, 3].isSorted() && sets.contains([1], [1])",
    verdict: ok,
  },
  {
    source: '[go]',
    mode: 'compile',
    expression:
      "isQuantity('1Gi') && quantity('1Gi').isGreaterThan(quantity('1Mi')) && isIP('1.2.3.4') &&" +
      " url('https://a').getHost() == 'a'",
    verdict: ok,
  },
  {
    source: '[go]',
    mode: 'compile',
    expression: "object.?spec.?x.orValue('') == '' && optional.none().hasValue() == false",
    verdict: ok,
  },
  // The Pod schema.
  {
    source: '[tc]',
    mode: 'typecheck',
    expression: 'object.spec.containers.all(c, c.nonExisting == 1)',
    verdict: error(32, "undefined field 'nonExisting'"),
  },
  {
    source: '[srv]',
    mode: 'typecheck',
    expression: '(object.spec.containers + object.spec.initContainers).size() > 0',
    verdict: error(
      25,
      "found no matching overload for '_+_' applied to '(list(Pod.spec.containers.@idx)," +
        " list(Pod.spec.initContainers.@idx))'",
    ),
  },
  {
    source: '[go]',
    mode: 'typecheck',
    expression: 'object.spec.containers.map(c, c.name) + object.spec.initContainers.map(c, c.name) == []',
    verdict: ok,
  },
  {
    source: '[go]',
    mode: 'typecheck',
    expression: "object.metadata.labels['a'] == 'b' && object.spec.containers[0].securityContext.runAsUser == 0",
    verdict: ok,
  },
  {
    source: '[go]',
    mode: 'typecheck',
    expression: "object.spec.containers[0].ports[0].containerPort == 'x'",
    verdict: error(50, "found no matching overload for '_==_' applied to '(int, string)'"),
  },
  {
    source: '[go]',
    mode: 'typecheck',
    expression: 'has(object.spec.containers[0].resources.limits)',
    verdict: error(4, "undefined field 'limits'"),
  },
  {
    source: '[go]',
    mode: 'typecheck',
    expression: 'object.spec.containers[0].livenessProbe.httpGet.port == 8080',
    verdict: ok,
  },
  {
    source: '[go]',
    mode: 'typecheck',
    expression: "object.metadata.namespace == 'a'",
    verdict: error(16, "undefined field 'namespace'"),
  },
  {
    source: '[go]',
    mode: 'typecheck',
    expression:
      "object.metadata.__namespace__ == 'a' && object.metadata.creationTimestamp < timestamp('2024-01-01T00:00:00Z')",
    verdict: ok,
  },
];
