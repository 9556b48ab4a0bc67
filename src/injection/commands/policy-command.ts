// `sfd-sidecar policy suggest [--from log|metrics] FILE|-`: the smallest operations that would have
// allowed every call the sidecars saw answered below 400, as YAML ready to paste: entitlement entries
// when a log collector or the series name the namespace of each call, else each profile's `operations`
// for the key store; each item with the calls it covers. Only the sidecar container's lines count, and
// the lines left out are counted on stderr by why. From metric series only named operations can be told,
// and calls of any other operation are warned about: only request log lines carry their paths.
import { readCommandInput } from '../../command/read-input.js';
import { formatObject } from '../../command/format-object.js';
import { outputFormatOf, type OutputFormat } from '../../command/output-format.js';
import type { CliIo } from '../../command/cli-io.js';
import { describeOperationItem } from '../../operations/operation-rules.js';
import { callsFromLogLines, callsFromSeries, LEFT_OUT_LINES, type ReadCalls } from '../../operations/seen-calls.js';
import { suggestOperations, type Suggestion } from '../../operations/suggest-operations.js';
import { toCommentedYaml } from '../../text/yaml.js';
import { SIDECAR_NAME } from '../contract.js';

const USAGE =
  'usage: sfd-sidecar policy suggest [--from log|metrics] [-o json|yaml] FILE|-   (request log lines, or /metrics)';
const MAX_INPUT_BYTES = 512 * 1024 * 1024;

export async function policyCommand(
  positionals: readonly string[],
  options: Readonly<Record<string, unknown>>,
  io: CliIo,
): Promise<number> {
  const format = outputFormatOf(options);
  const [action, source, ...rest] = positionals;
  const from = options.from ?? 'log';
  if (action !== 'suggest' || source === undefined || rest.length > 0 || (from !== 'log' && from !== 'metrics')) {
    io.stderr(`${USAGE}\n`);
    return 2;
  }
  const input = await readCommandInput(io, 'policy', source, MAX_INPUT_BYTES);
  if (input === null) return 2;
  const read = from === 'log' ? callsFromLogLines(input, SIDECAR_NAME) : callsFromSeries(input);
  const suggestions = suggestOperations(read.calls);
  const total = read.calls.reduce((sum, call) => sum + call.count, 0);
  io.stderr(
    `sfd-sidecar policy: ${total} calls read from ${source === '-' ? 'stdin' : source}` +
      `${read.skipped > 0 ? `, ${read.skipped} lines skipped (not a request's record)` : ''}\n`,
  );
  for (const line of leftOutLines(read)) io.stderr(`warning: ${line}\n`);
  for (const suggestion of suggestions.filter((s) => s.unnamed > 0))
    io.stderr(
      `warning: profile ${suggestion.profile}: ${suggestion.unnamed} calls of operation other, which only their ` +
        'paths can grant: run policy suggest over request log lines (--from log) to see them\n',
    );
  if (suggestions.length === 0) {
    io.stderr('sfd-sidecar policy: no call answered below 400: nothing to suggest\n');
    return 1;
  }
  io.stdout(render(suggestions, format));
  return 0;
}

/** Entitlement entries when the calls carry who made them, else each profile's operations. */
function render(suggestions: readonly Suggestion[], format: OutputFormat | null): string {
  const counted = new Map<string, string>();
  const itemsOf = (suggestion: Suggestion, at: string) =>
    suggestion.items.map((suggested, index) => {
      counted.set(`${at}.${index}`, `${suggested.calls} call${suggested.calls === 1 ? '' : 's'}`);
      return suggested.item;
    });
  const byWho = suggestions.every((s) => s.namespace !== undefined);
  const value = byWho
    ? {
        entitlements: suggestions.map((s, index) => ({
          namespace: s.namespace,
          profiles: [s.profile],
          operations: itemsOf(s, `entitlements.${index}.operations`),
        })),
      }
    : {
        profiles: Object.fromEntries(
          suggestions.map((s) => [s.profile, { operations: itemsOf(s, `profiles.${s.profile}.operations`) }]),
        ),
      };
  if (format !== null) return formatObject(value, format);
  const heading = byWho
    ? '# Entries for the entitlement policy (policy.entitlements), from the calls seen:'
    : "# Each profile's operations for the key store, from the calls seen:";
  const body = toCommentedYaml(
    value,
    (path) => counted.get(path.join('.')),
    (path) => counted.has(path.join('.')),
  );
  const described = suggestions.flatMap((s) => s.items.map((i) => describeOperationItem(i.item)));
  return `${heading} ${described.length} operations\n${body}`;
}

/** What was left out of the suggestion and why, one sentence per reason that left out any line. */
function leftOutLines(read: ReadCalls): string[] {
  const lines = (Object.keys(LEFT_OUT_LINES) as (keyof typeof LEFT_OUT_LINES)[])
    .filter((reason) => read.leftOut[reason] > 0)
    .map((reason) => `${read.leftOut[reason]} request lines left out: ${LEFT_OUT_LINES[reason]}`);
  if (read.ownMetadata > 0)
    lines.push(
      `${read.ownMetadata} request lines name a namespace or service account of their own, which is not read: ` +
        "only a log collector's metadata says where a line came from",
    );
  return lines;
}
