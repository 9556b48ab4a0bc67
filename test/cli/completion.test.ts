// `sfd-sidecar completion bash|zsh|fish` as each shell reads it: the script is loaded into the real shell
// and asked, the shell's own way, what it would offer after the words typed so far. Commands, actions,
// flags (the command's own and its settings), a flag's values and file names come from the command table
// and the settings registry.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { COMMANDS } from '../../src/cli/commands.js';
import { flagFor } from '../../src/config/setting-definition.js';
import { SETTINGS } from '../../src/settings/all-settings.js';
import { runCli, runProcess } from '../helpers/cli-process.js';
import { requireTool } from '../helpers/tools.js';

const SHELLS = ['bash', 'zsh', 'fish'] as const;
type Shell = (typeof SHELLS)[number];

const scripts = new Map<Shell, Promise<{ file: string; dir: string }>>();
/** The script each shell gets, written once by the real command into a directory with a file to offer. */
function scriptFile(shell: Shell): Promise<{ file: string; dir: string }> {
  if (!scripts.has(shell)) scripts.set(shell, writeScript(shell));
  return scripts.get(shell)!;
}

async function writeScript(shell: Shell): Promise<{ file: string; dir: string }> {
  const run = await runCli(['completion', shell]);
  if (run.code !== 0) throw new Error(run.stderr);
  const dir = mkdtempSync(join(tmpdir(), `sfd-completion-${shell}-`));
  writeFileSync(join(dir, 'a-file.yaml'), 'kind: List\n');
  const file = join(dir, shell === 'zsh' ? '_sfd-sidecar' : `sfd-sidecar.${shell}`);
  writeFileSync(file, run.stdout);
  return { file, dir };
}

/**
 * What the shell offers after `line` (the last word is the one being completed): bash runs the function
 * `complete -p` names with COMP_WORDS set; fish answers `complete -C`; zsh, after compinit, shows that
 * the script registered itself for both names and gives the words of its completer.
 */
async function offered(shell: Shell, line: string, program = 'sfd-sidecar'): Promise<string[]> {
  const { file, dir } = await scriptFile(shell);
  const words = `${program} ${line}`;
  const scripts: Record<Shell, string> = {
    bash: [
      `source '${file}'`,
      `function=$(complete -p ${program} | sed -E 's/.*-F ([^ ]+).*/\\1/')`,
      `read -ra COMP_WORDS <<< '${words}'`,
      `[[ '${words}' == *' ' ]] && COMP_WORDS+=('')`,
      'COMP_CWORD=$((${#COMP_WORDS[@]} - 1))',
      '"$function"',
      'printf \'%s\\n\' "${COMPREPLY[@]}"',
    ].join('\n'),
    zsh: [
      `autoload -U compinit && compinit -u -d '${dir}/zcompdump'`,
      `source '${file}'`,
      `[[ \${_comps[${program}]} == _sfd_sidecar ]] || { echo "not registered for ${program}" >&2; exit 3 }`,
      `words=(\${(z)\${:-'${words}'}})`,
      `[[ '${words}' == *' ' ]] && words+=('')`,
      `_sfd_sidecar_words "\${words[@]}" | while read -r word; do`,
      `  if [[ $word == @files ]]; then print -l -- *(N); else print -r -- $word; fi`,
      'done',
    ].join('\n'),
    fish: [`source '${file}'`, `complete -C'${words}'`].join('\n'),
  };
  const args = shell === 'zsh' ? ['-f', '-c', scripts.zsh] : ['-c', scripts[shell]];
  const run = await runProcess(requireTool(shell, shell), args, { cwd: dir });
  if (run.code !== 0) throw new Error(`${shell}: ${run.code} ${run.stderr}`);
  const current = line.split(' ').at(-1)!;
  // bash and fish offer only what starts with the word typed; zsh leaves that to compadd.
  return run.stdout
    .split('\n')
    .map((entry) => entry.split('\t')[0]!)
    .filter((entry) => entry !== '' && entry.startsWith(current));
}

for (const shell of SHELLS) {
  test(`${shell}: the first word is every command`, async (t) => {
    t.deepEqual((await offered(shell, '')).sort(), COMMANDS.map((c) => c.name).sort());
    t.deepEqual(await offered(shell, 'ke'), ['keys']);
  });

  test(`${shell}: a command's actions, then its flags and their values`, async (t) => {
    t.deepEqual((await offered(shell, 'keys ')).sort(), ['check', 'list', 'schema', 'split']);
    t.deepEqual((await offered(shell, 'completion ')).sort(), ['bash', 'fish', 'zsh']);
    const flags = await offered(shell, 'check --');
    for (const flag of ['--pod', '--namespace', '--output', flagFor(SETTINGS.keystoreSecret.env), '--help'])
      t.true(flags.includes(flag), `${flag} in ${flags.join(' ')}`);
    t.false(flags.includes(flagFor(SETTINGS.listen.env)), 'a setting check does not read');
    t.deepEqual((await offered(shell, 'check -o ')).sort(), ['json', 'yaml']);
    t.deepEqual((await offered(shell, 'policy suggest --from ')).sort(), ['log', 'metrics']);
    t.deepEqual(await offered(shell, '--upstream-u'), [flagFor(SETTINGS.upstreamUrl.env)]);
  });

  test(`${shell}: file names where a command reads a file, and for kubectl-sfd too`, async (t) => {
    t.true((await offered(shell, 'audit a-')).includes('a-file.yaml'));
    t.true((await offered(shell, 'keys check a-')).includes('a-file.yaml'));
    t.deepEqual(await offered(shell, 'ch', 'kubectl-sfd'), ['check']);
  });
}

test('completion of another shell is a usage error naming the three', async (t) => {
  const run = await runCli(['completion', 'powershell']);
  t.is(run.code, 2);
  t.is(run.stdout, '');
  t.regex(run.stderr, /^usage: sfd-sidecar completion bash\|zsh\|fish \("powershell" is not one of them\)/);
});
