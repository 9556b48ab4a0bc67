// The model of the API server's CEL gives cel-go's verdict, message and column for each expression of
// the table, at the policy's creation and in the type checks against the Pod schema.
import test from 'ava';
import { compilePolicy, typeCheckPolicy } from '../../helpers/kube-cel/admission-cel.js';
import { VERDICT_CASES } from './cel-verdict-cases.js';

function verdictOf(mode: 'compile' | 'typecheck', expression: string): string {
  const spec = { validations: [{ expression, message: 'm' }] };
  const found =
    mode === 'compile'
      ? compilePolicy(spec).map((e) => e.detail)
      : typeCheckPolicy(spec).map((w) => w.warning.replace('/v1, Kind=Pod: ', ''));
  if (found.length === 0) return 'ok';
  const first = /ERROR: <input>:1:(\d+): (.*)/.exec(found[0]!);
  return first ? `${first[1]}: ${first[2]}` : found[0]!;
}

for (const c of VERDICT_CASES) {
  test(`${c.mode} ${c.source}: ${c.expression}`, (t) => {
    const expected = c.verdict === 'ok' ? 'ok' : `${c.verdict.column}: ${c.verdict.message}`;
    t.is(verdictOf(c.mode, c.expression), expected);
  });
}

test('a validation that is not a bool, or a message expression that is not a string, is refused', (t) => {
  const errors = compilePolicy({
    validations: [
      { expression: 'object.spec', message: 'm' },
      { expression: 'true', messageExpression: '1 == 1' },
    ],
  });
  t.deepEqual(
    errors.map((e) => `${e.field}: ${e.detail}`),
    [
      'spec.validations[0].expression: must evaluate to bool but got dyn',
      'spec.validations[1].messageExpression: must evaluate to string but got bool',
    ],
  );
});

test('a variable sees only the variables before it, and a failed one is dyn to those after it', (t) => {
  const errors = compilePolicy({
    variables: [
      { name: 'a', expression: 'variables.b' },
      { name: 'b', expression: "['x']" },
      { name: 'c', expression: "variables.b + ['y']" },
    ],
    validations: [{ expression: "variables.c == ['x', 'y'] && variables.a == 1", message: 'm' }],
  });
  t.deepEqual(
    errors.map((e) => `${e.field}: ${e.detail.split('\n')[0]}`),
    ["spec.variables[0].expression: compilation failed: ERROR: <input>:1:10: undefined field 'b'"],
  );
});

test('message expressions cannot use the authorizer; validations can', (t) => {
  const errors = compilePolicy({
    validations: [
      {
        expression: "authorizer.group('').resource('pods').check('get').allowed()",
        messageExpression: 'string(authorizer)',
      },
    ],
  });
  t.deepEqual(
    errors.map((e) => `${e.field}: ${e.detail.split('\n')[0]}`),
    [
      'spec.validations[0].messageExpression: compilation failed: ERROR: <input>:1:8: undeclared reference' +
        " to 'authorizer' (in container '')",
    ],
  );
});

test("params are a ConfigMap's type in type checking: data is a map of strings", (t) => {
  const spec = {
    paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
    validations: [
      { expression: "params.data['a'] == 'b'", message: 'm' },
      { expression: "params.data['a'] == 1", message: 'm' },
    ],
  };
  t.deepEqual(compilePolicy(spec), []);
  t.deepEqual(
    typeCheckPolicy(spec).map((w) => `${w.fieldRef}: ${w.warning.split('\n')[0]}`),
    [
      'spec.validations[1].expression: /v1, Kind=Pod: ERROR: <input>:1:18: found no matching overload for' +
        " '_==_' applied to '(string, int)'",
    ],
  );
});
