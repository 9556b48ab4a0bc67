// What the bench reads of a measured process from /proc: the CPU time of all its threads (schedstat, in
// nanoseconds, fine enough for the few milliseconds an idle process spends) and the context switches of its
// main thread, each a time it went to sleep or was put off the core and woke again; and its memory.
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

/** `VmRSS` and the `Anonymous:` field of smaps_rollup, in MB; null when the process is gone. */
export function memoryMb(pid: number): { rssMb: number; anonymousMb: number } | null {
  try {
    const kb = (text: string, field: string): number =>
      Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? 0);
    const mb = (value: number): number => Math.round((value / 1024) * 10) / 10;
    return {
      rssMb: mb(kb(readFileSync(`/proc/${pid}/status`, 'utf8'), 'VmRSS')),
      anonymousMb: mb(kb(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'), 'Anonymous')),
    };
  } catch {
    return null;
  }
}
