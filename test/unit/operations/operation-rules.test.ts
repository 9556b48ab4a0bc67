// The operation rules as a profile's limit reads them: named operations, and {methods, paths} rules
// whose `*` is one segment of unreserved characters; compared on generated requests with a matcher
// written apart from the product's, from the rule's words alone.
import test from 'ava';
import fc from 'fast-check';
import { operationCheck, parseOperationItems, readOperationItem } from '../../../src/operations/operation-rules.js';

/** The rule as its documentation states it, written as one regular expression per pattern. */
function independentMatch(rule: { methods: string[]; paths: string[] }, method: string, path: string): boolean {
  const methodOk = rule.methods.includes(method) || (method === 'HEAD' && rule.methods.includes('GET'));
  const pathOk = rule.paths.some((pattern) => {
    const source = pattern
      .split('/')
      .map((segment) => (segment === '*' ? '[A-Za-z0-9._~-]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('/');
    return new RegExp(`^${source}$`).test(path);
  });
  return methodOk && pathOk;
}

const segment = fc.oneof(
  fc.constantFrom('v1', 'reports', 'a.b', '2024', 'x~y', '', '%41', 'a;b', 'a\\b', '..', '.', 'A', '*', 'a%2Fb'),
  fc.stringMatching(/^[A-Za-z0-9._~%;\\-]{1,6}$/),
);
const path = fc.array(segment, { minLength: 1, maxLength: 5 }).map((segments) => `/${segments.join('/')}`);
const pattern = fc
  .array(fc.oneof(fc.constant('*'), fc.constantFrom('v1', 'reports', 'a.b', '2024', 'A')), {
    minLength: 1,
    maxLength: 5,
  })
  .map((segments) => `/${segments.join('/')}`);
const method = fc.constantFrom('GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'get');

test('a rule allows exactly what its words say, on generated methods and paths', (t) => {
  fc.assert(
    fc.property(
      fc.subarray(['GET', 'POST', 'DELETE'], { minLength: 1 }),
      fc.array(pattern, { minLength: 1, maxLength: 3 }),
      method,
      path,
      (methods, paths, m, p) => {
        const rule = { methods, paths };
        return operationCheck([rule])(m, p) === independentMatch(rule, m, p);
      },
    ),
    { numRuns: 3000 },
  );
  t.pass();
});

test('a wildcard never matches an encoded, parameter or backslash segment, nor two segments', (t) => {
  const allows = operationCheck([{ methods: ['GET'], paths: ['/v1/reports/*'] }]);
  t.true(allows('GET', '/v1/reports/2024'));
  t.true(allows('HEAD', '/v1/reports/2024'), 'GET allows HEAD');
  t.false(allows('POST', '/v1/reports/2024'));
  for (const sneaky of ['%2F..%2Fadmin', 'a;b', 'a\\b', '2024/summary', '', '%41'])
    t.false(allows('GET', `/v1/reports/${sneaky}`), sneaky);
  t.false(operationCheck([{ methods: ['HEAD'], paths: ['/a'] }])('GET', '/a'), 'HEAD does not allow GET');
});

test('named operations allow their calls and nothing else; an empty list allows nothing', (t) => {
  const allows = operationCheck(['getCustomer']);
  t.true(allows('GET', '/v1.1/customer/12345'));
  t.true(allows('HEAD', '/v1.2/customer'));
  t.false(allows('DELETE', '/v1.1/customer/12345'));
  t.false(allows('GET', '/cdn/v1.0/services/9/rateLimit'));
  t.false(operationCheck([])('GET', '/v1.1/customer/1'));
});

test('items are read with each problem named, never quoting the value', (t) => {
  t.deepEqual(readOperationItem('getRateLimit'), { ok: true, item: 'getRateLimit' });
  t.false(readOperationItem('other').ok, '`other` is not a name');
  t.false(readOperationItem({ methods: ['get'], paths: ['/a'] }).ok, 'methods in upper case');
  t.false(readOperationItem({ methods: ['GET'], paths: ['a/b'] }).ok, 'paths start with /');
  t.false(readOperationItem({ methods: ['GET'], paths: ['/a?b=1'] }).ok, 'no query');
  t.false(readOperationItem({ methods: ['GET'], paths: ['/a'], extra: 1 }).ok);
  const parsed = parseOperationItems('getCustomer, GET|HEAD /v1.2/reports/*');
  t.deepEqual(parsed, { ok: true, items: ['getCustomer', { methods: ['GET', 'HEAD'], paths: ['/v1.2/reports/*'] }] });
  t.false(parseOperationItems('getCustomer, delete everything').ok);
});
