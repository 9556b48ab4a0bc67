// Rewrites the OpenAPI fixture from Kubernetes' own document:
//   node dist/test/helpers/kube-cel/regenerate-openapi-subset.js <api__v1_openapi.json> <commit> <tree>
// where <commit> and <tree> name the checkout the document was read from (recorded in the fixture).
import { readFileSync, writeFileSync } from 'node:fs';
import { extractSubset, SUBSET_PATH, SUBSET_ROOTS, type OpenApiSchema } from './openapi-subset.js';

const [documentPath, commit, tree] = process.argv.slice(2);
if (!documentPath || !commit || !tree) throw new Error('usage: regenerate-openapi-subset <document> <commit> <tree>');
const document = JSON.parse(readFileSync(documentPath, 'utf8')) as {
  components: { schemas: Record<string, OpenApiSchema> };
};
const subset = {
  source: {
    project: 'Kubernetes v1.36 (openshift/kubernetes, as vendored by openshift/microshift)',
    repository: 'https://github.com/openshift/microshift',
    commit,
    path: `${tree}/api/openapi-spec/v3/api__v1_openapi.json`,
    license: 'Apache-2.0',
    extracted: `components.schemas reachable from ${SUBSET_ROOTS.join(', ')}, unchanged`,
  },
  roots: SUBSET_ROOTS,
  schemas: extractSubset(document.components.schemas, SUBSET_ROOTS),
};
writeFileSync(SUBSET_PATH, `${JSON.stringify(subset, null, 1)}\n`);
