// The callers a listener's connections come from, told apart by source address, and how many
// connections each holds. A caller is forgotten once it holds none, so there are never more of them
// than connections held.
import { sourceAddress } from '../config/source-address.js';
import { ConnectionQueue, type Caller } from './connection-queue.js';

export class ConnectionCallers {
  private readonly byAddress = new Map<string, Caller>();

  /** Counts a new connection from `remoteAddress` against its caller, and returns that caller. */
  join(remoteAddress: string | undefined): Caller {
    const address = sourceAddress(remoteAddress);
    let caller = this.byAddress.get(address);
    if (!caller) {
      caller = { address, held: 0, idle: new ConnectionQueue(), silent: new ConnectionQueue() };
      this.byAddress.set(address, caller);
    }
    caller.held += 1;
    return caller;
  }

  /** Stops counting one of the caller's connections. */
  leave(caller: Caller): void {
    caller.held -= 1;
    if (caller.held === 0) this.byAddress.delete(caller.address);
  }

  /**
   * The caller holding the most connections, among those that hold more than `held` and have one that
   * can be closed (idle or silent); null when there is none. It reads every caller, which is asked only
   * at the bound, and callers are few: the kubelet's node, Prometheus, an ingress's addresses, whoever
   * floods.
   */
  heaviestAbove(held: number): Caller | null {
    let heaviest: Caller | null = null;
    for (const caller of this.byAddress.values()) {
      if (caller.held > (heaviest?.held ?? held) && (caller.idle.first() ?? caller.silent.first())) heaviest = caller;
    }
    return heaviest;
  }
}
