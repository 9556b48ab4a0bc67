// Every secret the tests use. After a full test run, .ci/run scans all of its output for them
// (test/scan-output-for-secrets.ts): none may appear.
/** Secrets placed in every input a parser or library could quote (test/cli/no-secret-in-any-output.test.ts). */
export const LEAK_SECRETS = {
  yamlTag: 'leak-yaml-tag-secret-a1',
  yamlAnchor: 'leak-yaml-anchor-secret-a2',
  yamlDuplicate: 'leak-yaml-duplicate-secret-a3',
  yamlWrongType: 'leak-yaml-wrong-type-secret-a4',
  yamlUnclosed: 'leak-yaml-unclosed-secret-a5',
  jsonDuplicate: 'leak-json-duplicate-secret-a6',
  jsonSyntax: 'leak-json-syntax-secret-a7',
  jsonWrongType: 'leak-json-wrong-type-secret-a8',
  keyStore: 'leak-keystore-secret-a9',
  secretFile: 'leak-secret-file-b1',
  dotenv: 'leak-dotenv-secret-b2',
  caBundle: 'leak-ca-bundle-text-b3',
  proxyPassword: 'leak-proxy-password-b4',
  notifyToken: 'leak-notify-token-b5-0123456789',
} as const;

export const ALL_TEST_SECRETS = [
  ...Object.values(LEAK_SECRETS),
  'test-secret-must-never-leak-7f3a9c',
  'fixture-secret-0001',
  'rotation-secret-a-1f2e',
  'rotation-secret-b-9d8c',
  'profile-secret-app-11',
  'profile-secret-billing-22',
  'profile-secret-payroll-33',
  'fallback-secret-old-44',
  'fallback-secret-new-55',
  'cli-keystore-secret-77aa',
  'keystore-secret-never-quoted-91b2',
  'image-test-secret-3c1d',
  'sigterm-test-secret-5e21',
  'relay-token-0123456789abcdef',
  'egress-proxy-password-6b4d',
  'hunter2-proxy',
  'plain-file-secret-c1',
] as const;
