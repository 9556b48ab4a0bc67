// A doctor check's timeout gives its verdict only after one more turn of I/O. A process paused past the
// timeout (a throttled container, a busy node) wakes with the timer due and the network's answer
// already waiting; timers run before I/O in Node's event loop, so without this turn a refusal that came
// in time would be reported as "no connection within N ms".

/** Runs `verdict` after the I/O events already waiting have been handled. */
export function afterPendingIo(verdict: () => void): () => void {
  return () => void setImmediate(verdict);
}
