// The settings `inject` runs with over a corpus: those of the tests' injection defaults.
import { DEFAULTS } from './injection.js';

export const CORPUS_INJECT_ARGS: readonly string[] = [
  '--keystore-secret',
  DEFAULTS.keystoreSecret!,
  '--upstream-url',
  DEFAULTS.upstreamUrl!,
];
