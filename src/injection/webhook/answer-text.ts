// What an answer and its log line may say of a pod, bounded: a pod's names, keys and the problems
// naming them come from its client and may be of any length, and the answer is held in the injector's
// memory budget until the API server reads it. An answer much larger than the review it answers would
// not fit there, and a review refused for lack of room is one the API server applies its failure
// policy to.

/** The longest refusal message answered; the rest is counted, not written. */
export const MAX_MESSAGE_CHARACTERS = 16 * 1024;
/** The longest warning; the API server shortens longer ones for kubectl anyway. */
export const MAX_WARNING_CHARACTERS = 1024;
/** The most warnings one answer carries; those beyond are counted in the last. */
export const MAX_WARNINGS = 20;
/** The longest text a log line repeats from a review (its uid, namespace, service account). */
export const MAX_LOGGED_CHARACTERS = 256;

/** The text, cut at `max` characters (never inside a surrogate pair) with the number left out. */
export function boundedText(text: string, max: number): string {
  if (text.length <= max) return text;
  const code = text.charCodeAt(max - 1);
  const cut = code >= 0xd800 && code <= 0xdbff ? max - 1 : max;
  return `${text.slice(0, cut)}… (${text.length - cut} more characters)`;
}

/** At most MAX_WARNINGS warnings, each bounded; the last says how many were left out. */
export function boundedWarnings(warnings: readonly string[], prefix: string): string[] {
  const kept = warnings.length <= MAX_WARNINGS ? warnings : warnings.slice(0, MAX_WARNINGS - 1);
  const bounded = kept.map((warning) => boundedText(warning, MAX_WARNING_CHARACTERS));
  if (kept.length < warnings.length) bounded.push(`${prefix}${warnings.length - kept.length} more warnings`);
  return bounded;
}
