// Test key material. Tests assert these values never appear in logs, bodies or output.
export const TEST_KEY_ID = 'AKTEST000000001';
export const TEST_SECRET = 'test-secret-must-never-leak-7f3a9c';
