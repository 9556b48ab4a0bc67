// The gateway's answers that refuse the key a request was signed with, each with what it means. Any of
// them is worth one re-sign with another key of the profile valid now; what the first one means is what
// the re-sign's log line says, because another key cures only some of them: a signature of the wrong
// form is refused whatever key signs it.

export interface KeyRefusal {
  readonly status: number;
  /** What the refusal says about the key, for whoever reads the re-sign's log line. */
  readonly hint: string;
}

/** By the `code` of the gateway's error body (a Map: a code is the gateway's text, never a property name). */
const KEY_REFUSALS: ReadonlyMap<string, KeyRefusal> = new Map([
  [
    'Signature.NotMatch',
    {
      status: 401,
      hint:
        'the gateway refused the signature, not the key id: the signature form (scheme, shape, query placement) ' +
        'is not the one it accepts, or the secret is not the one it holds for this key; `sfd-sidecar doctor` ' +
        'finds the form the gateway accepts',
    },
  ],
  [
    'AccessCredential.Invalid',
    {
      status: 401,
      hint:
        'the gateway knows this key id but does not accept the key (disabled or revoked in the portal): ' +
        'every request pays a second round trip until the key store drops it; see sfd_resign_retries_total',
    },
  ],
  [
    'AccessKeyId.Invalid',
    {
      status: 400,
      hint:
        'the gateway does not know this key (yet): every request pays a second round trip until it does; ' +
        'see sfd_resign_retries_total',
    },
  ],
]);

/** The statuses a key refusal comes with: only these answers' bodies are looked at before they are relayed. */
export const KEY_REFUSAL_STATUSES: ReadonlySet<number> = new Set([...KEY_REFUSALS.values()].map((r) => r.status));

/** The refusal an answer's status and error code make, or null when they refuse no key. */
export function keyRefusal(status: number, code: string | null): KeyRefusal | null {
  const refusal = code === null ? undefined : KEY_REFUSALS.get(code);
  return refusal?.status === status ? refusal : null;
}

/** What a key refusal's code means; the codes come from the table above. */
export function keyRefusalHint(code: string): string {
  return KEY_REFUSALS.get(code)?.hint ?? `the gateway refused the key with ${code}`;
}
