// Every secret the tests use. After a full test run, .ci/run scans all of its output for them
// (test/scan-output-for-secrets.ts): none may appear.
export const ALL_TEST_SECRETS = [
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
] as const;
