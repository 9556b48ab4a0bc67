// The repository's root, for tests that read its files. Apart from tools.ts, which runs programs, so
// that a unit test can read the repository without importing anything that starts a process.
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
