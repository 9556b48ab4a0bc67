// The servers a bench or soak run starts (upstream, emulator, proxies): each gets a name, an exit
// before the run stops them is reported as "NAME exited (CAUSE)", and all are stopped together.
import type { ChildProcess } from 'node:child_process';

export interface ChildSupervisor {
  /** Watches a started child under a name for the reports; returns it. */
  watch(name: string, child: ChildProcess): ChildProcess;
  /** Stops every child; exits from here on are expected and not reported. */
  stopAll(signal: NodeJS.Signals): void;
}

export function superviseChildren(onUnexpectedExit: (description: string) => void): ChildSupervisor {
  const children: ChildProcess[] = [];
  let stopping = false;
  return {
    watch(name, child) {
      children.push(child);
      child.on('exit', (code, signal) => {
        if (!stopping) onUnexpectedExit(`${name} exited (${signal ?? `code ${code}`})`);
      });
      return child;
    },
    stopAll(signal) {
      stopping = true;
      for (const child of children) child.kill(signal);
    },
  };
}
