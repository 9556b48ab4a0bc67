// Where one exchange stands on the re-sign path, as states and the named transitions between them:
// the first attempt is out; the gateway refused its key and the request is out again, re-signed with
// another key of the profile, its first refusal held back; the answer the caller gets is chosen. The
// re-sign's log line waits in the re-signing state for the re-signed attempt's outcome, and leaves it
// once, with whichever transition ends it.
import type { IncomingMessage } from 'node:http';
import type { BodyPrefix } from '../outbound/read-prefix.js';
import type { SignResult } from '../signing/sign-request.js';
import type { AccessKey } from '../signing/types.js';
import type { Resign } from './resign-log.js';

/** One attempt at the gateway: the key it was signed with, and how many times it was sent again unreached. */
export interface Attempt {
  readonly key: AccessKey;
  readonly signed: SignResult;
  readonly connectRetries: number;
}

/** The first attempt's refusal, whole (its body was read to its end), held back while the request is re-signed. */
export interface HeldRefusal {
  readonly attempt: Attempt;
  readonly response: IncomingMessage;
  readonly prefix: BodyPrefix;
  readonly code: string;
}

/** The re-sign's log line, less the re-signed attempt's outcome. */
export type PendingResign = Omit<Resign, 'retryStatus' | 'retryUpstreamCode'>;

export type ResignState =
  | { readonly name: 'first-attempt' }
  | { readonly name: 're-signing'; readonly refused: HeldRefusal; readonly pending: PendingResign }
  | { readonly name: 'answered' };

export type ResignStateName = ResignState['name'];

/** Each transition, the states it may leave, and the state it enters. */
export const RESIGN_TRANSITIONS = {
  /** The gateway refused the first attempt's key, and the profile holds another key valid now. */
  'key-refused': { from: ['first-attempt'], to: 're-signing' },
  /** The caller's answer is chosen: an attempt's answer, or the held refusal when the second key failed too. */
  'answer-chosen': { from: ['first-attempt', 're-signing'], to: 'answered' },
  /** The exchange ends (the caller's connection closed) with the re-signed attempt unanswered. */
  ended: { from: ['first-attempt', 're-signing', 'answered'], to: 'answered' },
} as const satisfies Record<string, { from: readonly ResignStateName[]; to: ResignStateName }>;

export type ResignTransition = keyof typeof RESIGN_TRANSITIONS;

export const FIRST_ATTEMPT: ResignState = { name: 'first-attempt' };
const ANSWERED: ResignState = { name: 'answered' };

/** first-attempt -> re-signing, holding the refusal and the log line that waits for the outcome. */
export function keyRefused(state: ResignState, refused: HeldRefusal, pending: PendingResign): ResignState {
  allow(state, 'key-refused');
  return { name: 're-signing', refused, pending };
}

/**
 * Leaves for `answered` by `transition`; returns the re-sign's log line, completed with the re-signed
 * attempt's outcome, when this ends a re-sign.
 */
export function settle(
  state: ResignState,
  transition: Exclude<ResignTransition, 'key-refused'>,
  outcome: Pick<Resign, 'retryStatus' | 'retryUpstreamCode'>,
): { readonly state: ResignState; readonly line: Resign | null } {
  allow(state, transition);
  return { state: ANSWERED, line: state.name === 're-signing' ? { ...state.pending, ...outcome } : null };
}

function allow(state: ResignState, transition: ResignTransition): void {
  const from: readonly ResignStateName[] = RESIGN_TRANSITIONS[transition].from;
  if (!from.includes(state.name)) throw new Error(`re-sign: no transition ${transition} from ${state.name}`);
}
