// The injector's entitlement policy, re-read when its file changes (a ConfigMap volume swaps its
// `..data` symlink, so the directory is watched, with a timer as a backstop). A file that does not
// parse never replaces the policy in use: the injector goes on deciding by the last good one.
import { dirname } from 'node:path';
import { describeFileProblem } from '../../files/regular-file.js';
import { MAX_POLICY_BYTES, parseEntitlementPolicy, type EntitlementPolicy } from './entitlement-policy.js';
import type { Logger } from '../../observability/logger.js';
import { deadlineAfter, reportChanges, startLastGoodReload, StalledRead } from '../../reload/last-good-reload.js';
import { watchDirectories } from '../../reload/watch-directories.js';

export interface PolicyReloader {
  readonly current: () => EntitlementPolicy;
  readonly stop: () => void;
}

export function watchPolicyFile(options: {
  readonly path: string;
  /** The policy in force, and the text it was read from. */
  readonly policy: EntitlementPolicy;
  readonly text: string;
  readonly readFile: (path: string, maxBytes: number) => Promise<string>;
  readonly logger: Logger;
  readonly intervalMs: number;
  /** A read of the file not done after this long is given up until the next trigger. */
  readonly stalledAfterMs: number;
}): PolicyReloader {
  const { path, logger } = options;
  const reload = startLastGoodReload<string, EntitlementPolicy, { problem: string } | { problems: string }>({
    initial: { input: options.text, value: options.policy },
    read: () => options.readFile(path, MAX_POLICY_BYTES),
    parse: (text) => {
      const parsed = parseEntitlementPolicy(text);
      return parsed.ok
        ? { ok: true, value: parsed.policy }
        : { ok: false, failure: { problems: parsed.problems.join('; ') } };
    },
    sameInput: (a, b) => a === b,
    failureOf: (error) => ({
      problem: `${path}: ${error instanceof StalledRead ? error.message : describeFileProblem(error)}`,
    }),
    triggers: (read) => watchDirectories([dirname(path)], read, { debounceMs: 100, intervalMs: options.intervalMs }),
    deadline: deadlineAfter(options.stalledAfterMs),
    settled: reportChanges({
      loaded: (policy) => logger.info('entitlement policy loaded', { entitlements: policy.entitlements.length }),
      rejected: (failure) => logger.warn('entitlement policy not reloaded; keeping the one in use', failure),
    }),
  });
  return { current: reload.current, stop: reload.stop };
}
