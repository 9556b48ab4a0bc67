// The completion scripts for bash, zsh and fish, written from the completion model: every command,
// its actions (`keys check`), its flags with their values where they are a few words, and files where
// a command reads them. Each script completes `sfd-sidecar` and `kubectl-sfd` alike.
import type { CommandDescription } from './command-definition.js';
import { COMPLETED_PROGRAMS, completionModel, type CompletedCommand, type CompletedFlag } from './completion-model.js';

export const COMPLETION_SHELLS = ['bash', 'zsh', 'fish'] as const;
export type CompletionShell = (typeof COMPLETION_SHELLS)[number];

/** A word in single quotes, for any of the three shells. */
const quoted = (text: string): string => `'${text.replaceAll("'", `'\\''`)}'`;
const flagWords = (flag: CompletedFlag): string[] => [flag.long, ...(flag.short ? [flag.short] : [])];

/** The command run when the first word is a flag, as the command line runs it. */
const DEFAULT_COMMAND = 'serve';
const TOP_FLAGS = ['--help', '-h', '--version', '-V'];

export function completionScript(shell: CompletionShell, commands: readonly CommandDescription[]): string {
  const model = completionModel(commands);
  return shell === 'bash' ? bashScript(model) : shell === 'zsh' ? zshScript(model) : fishScript(model);
}

/**
 * The words to offer, as a shell function `_sfd_sidecar_words WORD...` of the words typed so far (the
 * program, then each word, the last one the word being completed): one per line, `@files` where file
 * names go. bash and zsh share it; each turns its lines into candidates its own way.
 */
function wordsFunction(model: readonly CompletedCommand[]): string {
  const cases = model.map((command) => {
    const values = command.flags.filter((flag) => flag.takesValue);
    const choiceCases = values
      .filter((flag) => flag.choices)
      .map((flag) => `      ${flagWords(flag).join('|')}) printf '%s\\n' ${flag.choices!.join(' ')}; return ;;`);
    const fileFlags = values.filter((flag) => !flag.choices).flatMap(flagWords);
    return [
      `    ${command.name})`,
      `      flags=(${command.flags.flatMap(flagWords).join(' ')})`,
      `      subcommands=(${command.subcommands.join(' ')})`,
      `      files=${command.files ? 1 : 0}`,
      `      case $previous in`,
      ...choiceCases,
      ...(fileFlags.length > 0 ? [`      ${fileFlags.join('|')}) echo @files; return ;;`] : []),
      `      esac`,
      `      ;;`,
    ].join('\n');
  });
  const names = model.map((command) => command.name).join(' ');
  return `_sfd_sidecar_words() {
  local count=$# current=\${@:$#:1} previous= command= files=0 index word arguments=0
  local -a flags subcommands
  ((count > 2)) && previous=\${@:$((count - 1)):1}
  if ((count == 2)); then
    case $current in
    -*) command=${DEFAULT_COMMAND} ;;
    *) printf '%s\\n' ${names}; return ;;
    esac
  else
    command=$2
    case $command in -*) command=${DEFAULT_COMMAND} ;; esac
  fi
  case $command in
${cases.join('\n')}
  *) return ;;
  esac
  case $current in
  -*)
    [[ $command == ${DEFAULT_COMMAND} && $count == 2 ]] && printf '%s\\n' ${TOP_FLAGS.join(' ')}
    printf '%s\\n' "\${flags[@]}"
    return ;;
  esac
  for ((index = 3; index < count; index++)); do
    word=\${@:$index:1}
    [[ $word == -* ]] || ((arguments++))
  done
  if ((\${#subcommands[@]} > 0 && arguments == 0)); then printf '%s\\n' "\${subcommands[@]}"; return; fi
  ((files)) && echo @files
}`;
}

function bashScript(model: readonly CompletedCommand[]): string {
  return `# bash completion for ${COMPLETED_PROGRAMS.join(' and ')}: sfd-sidecar completion bash > FILE, then source it
${wordsFunction(model)}

_sfd_sidecar() {
  local word
  COMPREPLY=()
  while IFS= read -r word; do
    if [[ $word == @files ]]; then
      compopt -o filenames 2>/dev/null
      COMPREPLY+=($(compgen -f -- "\${COMP_WORDS[COMP_CWORD]}"))
    elif [[ $word == "\${COMP_WORDS[COMP_CWORD]}"* ]]; then
      COMPREPLY+=("$word")
    fi
  done < <(_sfd_sidecar_words "\${COMP_WORDS[@]:0:COMP_CWORD+1}")
}
complete -F _sfd_sidecar ${COMPLETED_PROGRAMS.join(' ')}
`;
}

function zshScript(model: readonly CompletedCommand[]): string {
  const described = (command: CompletedCommand) => quoted(`${command.name}:${command.summary.replaceAll(':', '\\:')}`);
  return `#compdef ${COMPLETED_PROGRAMS.join(' ')}
# zsh completion for ${COMPLETED_PROGRAMS.join(' and ')}: sfd-sidecar completion zsh > "\${fpath[1]}/_sfd-sidecar"
${wordsFunction(model)}

_sfd_sidecar() {
  local -a found commands
  local word
  commands=(${model.map(described).join(' ')})
  found=(\${(f)"$(_sfd_sidecar_words "\${(@)words[1,CURRENT]}")"})
  if [[ \${found[(I)@files]} -gt 0 ]]; then
    _files
  elif ((CURRENT == 2)) && [[ \${words[CURRENT]} != -* ]]; then
    _describe -t commands 'sfd-sidecar command' commands
  else
    compadd -a found
  fi
}

if (( $+functions[compdef] )); then
  compdef _sfd_sidecar ${COMPLETED_PROGRAMS.join(' ')}
fi
`;
}

function fishScript(model: readonly CompletedCommand[]): string {
  const lines = [`# fish completion for ${COMPLETED_PROGRAMS.join(' and ')}: sfd-sidecar completion fish > FILE`];
  for (const program of COMPLETED_PROGRAMS) {
    const c = `complete -c ${program}`;
    lines.push(`${c} -f`);
    for (const command of model)
      lines.push(`${c} -n '__fish_use_subcommand' -a ${command.name} -d ${quoted(command.summary)}`);
    lines.push(`${c} -n '__fish_use_subcommand' -l version -s V -d 'the version'`);
    for (const command of model) {
      // The default command's flags are offered before any command too, as the command line reads them.
      const when =
        command.name === DEFAULT_COMMAND
          ? `'__fish_use_subcommand; or __fish_seen_subcommand_from ${command.name}'`
          : `'__fish_seen_subcommand_from ${command.name}'`;
      for (const flag of command.flags) {
        const long = `-l ${flag.long.slice(2)}`;
        const short = flag.short ? ` -s ${flag.short.slice(1)}` : '';
        const value = flag.choices ? ` -x -a ${quoted(flag.choices.join(' '))}` : flag.takesValue ? ' -r -F' : '';
        lines.push(`${c} -n ${when} ${long}${short}${value} -d ${quoted(flag.description)}`);
      }
      if (command.subcommands.length > 0) {
        const none = `not __fish_seen_subcommand_from ${command.subcommands.join(' ')}`;
        lines.push(
          `${c} -n '__fish_seen_subcommand_from ${command.name}; and ${none}' ` +
            `-a ${quoted(command.subcommands.join(' '))}`,
        );
      }
      const afterAction =
        command.subcommands.length > 0 ? `; and __fish_seen_subcommand_from ${command.subcommands.join(' ')}` : '';
      if (command.files) lines.push(`${c} -n '__fish_seen_subcommand_from ${command.name}${afterAction}' -F`);
    }
  }
  return `${lines.join('\n')}\n`;
}
