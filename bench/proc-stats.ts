// What the bench reads of a measured process from /proc: the CPU time of all its threads (schedstat, in
// nanoseconds, fine enough for the few milliseconds an idle process spends) and the context switches of its
// main thread, each a time it went to sleep or was put off the core and woke again.
import { readdirSync, readFileSync } from 'node:fs';

/** CPU time of every thread of the process so far, in milliseconds; null when it is gone. */
export function processCpuMs(pid: number): number | null {
  try {
    let ns = 0;
    for (const task of readdirSync(`/proc/${pid}/task`))
      ns += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]);
    return ns / 1e6;
  } catch {
    return null;
  }
}

/** Voluntary and involuntary context switches of the main thread so far; null when it is gone. */
export function mainThreadSwitches(pid: number): number | null {
  try {
    const status = readFileSync(`/proc/${pid}/task/${pid}/status`, 'utf8');
    const count = (field: string): number => Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? 0);
    return count('voluntary_ctxt_switches') + count('nonvoluntary_ctxt_switches');
  } catch {
    return null;
  }
}
