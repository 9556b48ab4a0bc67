// The committed OpenAPI fixture is closed and exact: it holds every definition reachable from a Pod, a
// ConfigMap and a Namespace and nothing else, and names where it came from.
import test from 'ava';
import { extractSubset, listReferences, readSubset, SUBSET_ROOTS } from '../../helpers/kube-cel/openapi-subset.js';

test('the fixture holds exactly the definitions reachable from its roots', (t) => {
  const subset = readSubset();
  t.deepEqual(subset.roots, SUBSET_ROOTS);
  t.deepEqual(extractSubset(subset.schemas, SUBSET_ROOTS), subset.schemas);
  for (const schema of Object.values(subset.schemas))
    for (const ref of listReferences(schema)) t.truthy(subset.schemas[ref], ref);
});

test('the fixture names its source, commit and license', (t) => {
  const { source } = readSubset();
  t.regex(source.commit ?? '', /^[0-9a-f]{40}$/);
  t.is(source.license, 'Apache-2.0');
  t.regex(source.path ?? '', /api\/openapi-spec\/v3\/api__v1_openapi\.json$/);
});
