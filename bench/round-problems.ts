// What went wrong in a benchmark's rounds, one line each: which scenario, row and round saw errors and
// of what kind, and which rounds ran far longer than planned (the machine stalled: the load generator
// itself was not scheduled, so that round's figures, and any timeouts in it, are the machine's).
// A total such as "1 errors" alone cannot tell a sidecar fault from a stalled VM.

export interface ErrorKinds {
  /** Connect, read and write failures of the load generator's sockets. */
  readonly socket: number;
  /** Requests without an answer within the load generator's timeout (wrk: 2 s). */
  readonly timeout: number;
  /** Answers with a status the load generator counts as failed (wrk: 400 and above). */
  readonly status: number;
}

export interface RoundOutcome {
  readonly scenario: string;
  readonly row: string;
  /** 0-based. */
  readonly round: number;
  readonly errorKinds: ErrorKinds;
  /** Wall-clock seconds the round took, and the seconds it was meant to take. */
  readonly seconds: number;
  readonly plannedSeconds: number;
}

/** A round that took this many times its planned length (or more) is reported as stalled. */
export const STALL_FACTOR = 1.5;

export const errorCount = (kinds: ErrorKinds): number => kinds.socket + kinds.timeout + kinds.status;

function describeKinds(kinds: ErrorKinds): string {
  const parts: string[] = [];
  if (kinds.timeout > 0) parts.push(`${kinds.timeout} timed out`);
  if (kinds.socket > 0) parts.push(`${kinds.socket} socket ${kinds.socket === 1 ? 'error' : 'errors'}`);
  if (kinds.status > 0) parts.push(`${kinds.status} non-2xx ${kinds.status === 1 ? 'answer' : 'answers'}`);
  return parts.join(', ');
}

/** One line per round with errors or a stall, in the order the rounds ran; none when all went well. */
export function roundProblems(outcomes: readonly RoundOutcome[]): string[] {
  const lines: string[] = [];
  for (const outcome of outcomes) {
    const errors = errorCount(outcome.errorKinds);
    const stalled = outcome.seconds >= outcome.plannedSeconds * STALL_FACTOR;
    if (errors === 0 && !stalled) continue;
    const where = `${outcome.scenario}, ${outcome.row}, round ${outcome.round + 1}`;
    const what: string[] = [];
    if (errors > 0) what.push(`${errors} ${errors === 1 ? 'error' : 'errors'} (${describeKinds(outcome.errorKinds)})`);
    if (stalled)
      what.push(`ran ${outcome.seconds.toFixed(1)} s of a planned ${outcome.plannedSeconds} s: the machine stalled`);
    lines.push(`${where}: ${what.join('; ')}`);
  }
  return lines;
}
