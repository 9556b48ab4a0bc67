// The injector's entitlement policy, re-read when its file changes (a ConfigMap volume swaps its
// `..data` symlink, so the directory is watched, with a timer as a backstop). A file that does not
// parse never replaces the policy in use: the injector goes on deciding by the last good one.
import { watch, type FSWatcher } from 'node:fs';
import { dirname } from 'node:path';
import { describeFileProblem } from '../files/regular-file.js';
import { parseEntitlementPolicy, type EntitlementPolicy } from '../inject/entitlement-policy.js';
import type { Logger } from '../observability/logger.js';

const MAX_POLICY_BYTES = 1024 * 1024;

export interface PolicyReloader {
  readonly current: () => EntitlementPolicy;
  readonly stop: () => void;
}

export function watchPolicyFile(options: {
  readonly path: string;
  readonly initial: EntitlementPolicy;
  readonly readFile: (path: string, maxBytes: number) => Promise<string>;
  readonly logger: Logger;
  readonly intervalMs: number;
}): PolicyReloader {
  let current = options.initial;
  let lastText: string | undefined;
  let debounce: NodeJS.Timeout | undefined;
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
  const schedule = (): void => {
    clearTimeout(debounce);
    debounce = setTimeout(() => void reload(), 100);
    debounce.unref();
  };
  let watcher: FSWatcher | undefined;
  try {
    watcher = watch(dirname(options.path), { persistent: false }, schedule);
    watcher.on('error', () => watcher?.close());
  } catch {
    // The timer still re-reads the file.
  }
  const timer = setInterval(() => void reload(), options.intervalMs);
  timer.unref();
  return {
    current: () => current,
    stop: () => {
      clearTimeout(debounce);
      clearInterval(timer);
      watcher?.close();
    },
  };
}
