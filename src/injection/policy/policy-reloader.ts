// The injector's entitlement policy, re-read when its file changes (a ConfigMap volume swaps its
// `..data` symlink, so the directory is watched, with a timer as a backstop). A file that does not
// parse never replaces the policy in use: the injector goes on deciding by the last good one.
import { dirname } from 'node:path';
import { watchDirectories } from '../../files/watch-directories.js';
import { describeFileProblem } from '../../files/regular-file.js';
import { MAX_POLICY_BYTES, parseEntitlementPolicy, type EntitlementPolicy } from './entitlement-policy.js';
import type { Logger } from '../../observability/logger.js';

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
}): PolicyReloader {
  let current = options.policy;
  let lastText = options.text;
  const reload = async (): Promise<void> => {
    let text: string;
    try {
      text = await options.readFile(options.path, MAX_POLICY_BYTES);
    } catch (error) {
      return void options.logger.warn('entitlement policy not reloaded; keeping the one in use', {
        problem: `${options.path}: ${describeFileProblem(error)}`,
      });
    }
    if (text === lastText) return;
    lastText = text;
    const parsed = parseEntitlementPolicy(text);
    if (!parsed.ok)
      return void options.logger.warn('entitlement policy not reloaded; keeping the one in use', {
        problems: parsed.problems.join('; '),
      });
    current = parsed.policy;
    options.logger.info('entitlement policy loaded', { entitlements: current.entitlements.length });
  };
  const stop = watchDirectories([dirname(options.path)], () => void reload(), {
    debounceMs: 100,
    intervalMs: options.intervalMs,
  });
  return { current: () => current, stop };
}
