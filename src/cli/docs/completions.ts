/**
 * Shell completion scripts for bash, zsh and fish, generated from the command registry. The scripts
 * hold the static part (command words, flags, choices) as data; values only the server knows (policies,
 * namespaces ...) come from `svc __complete <kind> [prefix]` at completion time.
 *
 * All three scripts share one walk: the leading words select a command, a word starting with `-`
 * completes a flag (`-name=` for flags that take a value), `-name=<TAB>` or `-name <TAB>` completes the
 * flag's value, `KEY=<TAB>` completes the value of a K=V argument the command declares, and anything
 * else completes the next subcommand or the command's next argument. The walk also collects the options
 * of the line that `svc __complete` takes as well (-address, -namespace, the mount's -path ...) and hands
 * them to it, so values come from the server, namespace and mount the command will use.
 */
import type { CommandSpec, FlagSpec, GroupSpec } from '../define.js';
import type { FlagSetTable } from '../output/help.js';
import { childrenOf, isHidden } from './man.js';

export type Shell = 'bash' | 'zsh' | 'fish';
export const SHELLS: readonly Shell[] = ['bash', 'zsh', 'fish'];

/** What to offer for a value: a fixed set, files, directories, or a kind `svc __complete` resolves. */
export type ValueSpec = { kind: 'choices'; choices: readonly string[] } | { kind: 'file' } | { kind: 'dir' } | { kind: 'dynamic'; name: string };

export interface CompletionFlag {
  name: string;
  aliases: string[];
  takesValue: boolean;
  description: string;
  value?: ValueSpec;
}

export interface CompletionNode {
  /** the words, joined by spaces ('' for the root) */
  key: string;
  subcommands: Array<{ name: string; synopsis: string }>;
  /** set when the words name a command (not only a group) */
  command?: { flags: CompletionFlag[]; args: CompletionArg[] };
}

export interface CompletionArg {
  value?: ValueSpec;
  variadic: boolean;
  /** K=V arguments: the value spec of each key */
  pairs: Record<string, ValueSpec>;
}

function valueSpec(complete: FlagSpec['complete'], choices: readonly string[] | undefined): ValueSpec | undefined {
  if (choices && choices.length > 0) return { kind: 'choices', choices };
  if (complete === 'file') return { kind: 'file' };
  if (complete === 'dir') return { kind: 'dir' };
  if (complete) return { kind: 'dynamic', name: complete };
  return undefined;
}

export function commandFlags(spec: CommandSpec, flagSets: FlagSetTable): FlagSpec[] {
  const all = [...(spec.flagSets ?? []).flatMap((s) => flagSets[s]?.flags ?? []), ...(spec.flags ?? [])];
  // A command's own flag replaces a common one of the same name, as the argv parser does.
  const byName = new Map<string, FlagSpec>();
  for (const f of all) byName.set(f.name, f);
  return [...byName.values()].filter((f) => !f.hidden);
}

/** The completion tree: one node per command or group path, in a stable order. */
export function completionModel(commands: CommandSpec[], groups: GroupSpec[], flagSets: FlagSetTable): CompletionNode[] {
  const visible = commands.filter((c) => !isHidden(c));
  const keys = new Set<string>(['']);
  for (const c of [...groups.filter((g) => !isHidden(g)), ...visible]) {
    for (let n = 1; n <= c.path.length; n++) keys.add(c.path.slice(0, n).join(' '));
  }
  return [...keys].sort().map((key) => {
    const path = key === '' ? [] : key.split(' ');
    const spec = visible.find((c) => c.path.join(' ') === key);
    const node: CompletionNode = { key, subcommands: childrenOf(path, visible, groups).map(({ name, synopsis }) => ({ name, synopsis })) };
    if (spec) {
      node.command = {
        flags: commandFlags(spec, flagSets).map((f) => ({
          name: f.name,
          aliases: f.aliases ?? [],
          takesValue: f.type !== 'bool',
          description: f.description.trim(),
          value: valueSpec(f.complete, f.choices ?? f.suggestions),
        })),
        args: (spec.args ?? []).map((a) => ({
          value: valueSpec(a.complete, a.choices),
          variadic: a.variadic === true,
          pairs: Object.fromEntries(
            Object.entries(a.pairs ?? {}).flatMap(([key, p]) => {
              const v = valueSpec(p.complete, p.choices);
              return v ? [[key, v]] : [];
            }),
          ),
        })),
      };
    }
    return node;
  });
}

/** A value spec as one word the scripts switch on: `choices:a b`, `file`, `dir`, `dynamic:policy`. */
function specWord(v: ValueSpec): string {
  switch (v.kind) {
    case 'choices':
      return `choices:${v.choices.join(' ')}`;
    case 'dynamic':
      return `dynamic:${v.name}`;
    default:
      return v.kind;
  }
}

/** Single quotes for sh-family shells: `'` becomes `'\''`. */
const shq = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
/** Single quotes for fish, which escapes `\` and `'` inside them. */
const fishq = (s: string) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

/** The first sentence of a description, short enough for a completion menu. */
function brief(text: string): string {
  const first = text.split(/(?<=\.)\s/)[0].replace(/\.$/, '');
  return first.length > 72 ? `${first.slice(0, 69)}...` : first;
}

/**
 * The branches of the value-spec lookup every script has: value specs of flags keyed `<words>|-<flag>`
 * (aliases too), of K=V arguments keyed `<words>@<key>`, and of arguments keyed `<words>#<index>`; a
 * variadic argument's key is a prefix that matches every later index, and the different separators keep
 * it from matching a flag's or a key's. Identical specs share one branch.
 */
export interface ValueBranch {
  spec: string;
  keys: Array<{ text: string; prefix: boolean }>;
}

export function valueBranches(nodes: CompletionNode[]): ValueBranch[] {
  const bySpec = new Map<string, ValueBranch['keys']>();
  const add = (spec: string, text: string, prefix = false) => bySpec.set(spec, [...(bySpec.get(spec) ?? []), { text, prefix }]);
  for (const node of nodes) {
    for (const f of node.command?.flags ?? []) {
      if (f.value) for (const n of [f.name, ...f.aliases]) add(specWord(f.value), `${node.key}|-${n}`);
    }
    for (const a of node.command?.args ?? []) {
      for (const [key, v] of Object.entries(a.pairs)) add(specWord(v), `${node.key}@${key}`);
    }
  }
  const branches = [...bySpec].map(([spec, keys]) => ({ spec, keys }));
  // Argument branches come last and in argument order, so an exact index wins over a variadic prefix.
  for (const node of nodes) {
    node.command?.args.forEach((a, i) => {
      if (a.value) branches.push({ spec: specWord(a.value), keys: [a.variadic ? { text: `${node.key}#`, prefix: true } : { text: `${node.key}#${i}`, prefix: false }] });
    });
  }
  return branches;
}

/** A case pattern for bash and zsh: quoted text, then an unquoted `*` for a prefix. */
const shPattern = (keys: ValueBranch['keys']) => keys.map((k) => `${shq(k.text)}${k.prefix ? '*' : ''}`).join('|');
/** fish's `case` takes several patterns, and `*` is a wildcard even inside quotes. */
const fishPattern = (keys: ValueBranch['keys']) => keys.map((k) => fishq(`${k.text}${k.prefix ? '*' : ''}`)).join(' ');

const GENERATED = 'Generated from the command registry by `npm run gen`; do not edit.';

/**
 * The names (aliases too) of the options `svc __complete` takes that carry a value: the scripts pass
 * those of the line on to it. Flags without a value stay behind, -output-curl-string above all, which
 * would print a curl command instead of values.
 */
export function forwardedFlags(commands: CommandSpec[], flagSets: FlagSetTable): string[] {
  const callback = commands.find((c) => c.path.join(' ') === '__complete');
  if (!callback) return [];
  return commandFlags(callback, flagSets)
    .filter((f) => f.type !== 'bool')
    .flatMap((f) => [f.name, ...(f.aliases ?? [])]);
}

export function renderBash(nodes: CompletionNode[], forwarded: string[]): string {
  const L: string[] = [];
  L.push(
    '# bash completion for svc.',
    `# ${GENERATED}`,
    '# Install: source this file from ~/.bashrc, or: source <(svc completion bash)',
    '',
    '# The options of the line passed on to `svc __complete` (which server, namespace, mount ...).',
    `_svc_forwarded=${shq(` ${forwarded.join(' ')} `)}`,
    '',
    '# The subcommands of the words in $1.',
    '_svc_words() {',
    '  case "$1" in',
  );
  for (const n of nodes) if (n.subcommands.length > 0) L.push(`    ${shq(n.key)}) REPLY=${shq(n.subcommands.map((s) => s.name).join(' '))} ;;`);
  L.push("    *) REPLY='' ;;", '  esac', '}', '');
  L.push('# The flags of the command in $1 as offered; a trailing = marks a flag that takes a value.', '_svc_flags() {', '  case "$1" in');
  for (const n of nodes) {
    if (!n.command || n.command.flags.length === 0) continue;
    L.push(`    ${shq(n.key)}) REPLY=${shq(n.command.flags.map((f) => `-${f.name}${f.takesValue ? '=' : ''}`).join(' '))} ;;`);
  }
  L.push("    *) REPLY='' ;;", '  esac', '}', '');
  L.push('# Every name (aliases too) of the flags of $1 that take a value, to skip their values.', '_svc_valued() {', '  case "$1" in');
  for (const n of nodes) {
    const names = (n.command?.flags ?? []).filter((f) => f.takesValue).flatMap((f) => [f.name, ...f.aliases]);
    if (names.length > 0) L.push(`    ${shq(n.key)}) REPLY=${shq(` ${names.join(' ')} `)} ;;`);
  }
  L.push("    *) REPLY='' ;;", '  esac', '}', '');
  L.push('# What to offer for a value: $1 is "<words>|-<flag>" or "<words>#<argument index>".', '_svc_value_spec() {', '  case "$1" in');
  for (const b of valueBranches(nodes)) L.push(`    ${shPattern(b.keys)}) REPLY=${shq(b.spec)} ;;`);
  L.push("    *) REPLY='' ;;", '  esac', '}', '');
  L.push(
    '# Fills COMPREPLY with values of spec $1 that start with $2, each prefixed with $3.',
    '_svc_values() {',
    '  local spec=$1 cur=$2 prefix=$3 IFS=$\'\\n\'',
    '  local -a vals=()',
    '  case "$spec" in',
    "    choices:*) IFS=' ' read -ra vals <<<\"${spec#choices:}\"; vals=($(compgen -W \"${vals[*]}\" -- \"$cur\")) ;;",
    '    file) vals=($(compgen -f -- "$cur")); compopt -o filenames 2>/dev/null ;;',
    '    dir) vals=($(compgen -d -- "$cur")); compopt -o filenames 2>/dev/null ;;',
    '    dynamic:*) vals=($(compgen -W "$("$_svc_prog" __complete "${_svc_ctx[@]}" "${spec#dynamic:}" -- "$cur" 2>/dev/null)" -- "$cur")) ;;',
    '  esac',
    '  # Readline replaces only the text after the last COMP_WORDBREAKS character of the word (= and : by default).',
    "  local word=$prefix$cur breaks=${COMP_WORDBREAKS//[[:space:]]/} lead='' v",
    '  [[ -n $breaks ]] && lead=${word%"${word##*[$breaks]}"}',
    '  for v in "${vals[@]}"; do',
    '    v=$prefix$v',
    '    COMPREPLY+=("${v#"$lead"}")',
    '  done',
    '  # A directory-like value (a secrets path ending in /) is completed further, as a directory is.',
    '  [[ ${#COMPREPLY[@]} -eq 1 && ${COMPREPLY[0]} == */ ]] && compopt -o nospace 2>/dev/null',
    '  return 0',
    '}',
    '',
    '_svc() {',
    '  # Words are taken from the line itself, so "=" splits nothing whatever COMP_WORDBREAKS holds.',
    '  local line=${COMP_LINE:0:COMP_POINT} cur=\'\'',
    '  local -a words',
    '  read -ra words <<<"$line"',
    '  if [[ -n $line && $line != *[[:space:]] ]]; then',
    '    cur=${words[${#words[@]}-1]}',
    '    unset "words[${#words[@]}-1]"',
    '  fi',
    '  COMPREPLY=()',
    '  local _svc_prog=${words[0]:-svc}',
    '  local -a _svc_ctx=()',
    "  local key='' i=1 n=${#words[@]} REPLY",
    '  while ((i < n)); do',
    '    _svc_words "$key"',
    '    [[ " $REPLY " == *" ${words[i]} "* ]] || break',
    '    key=${key:+$key }${words[i]}',
    '    ((i++))',
    '  done',
    '  _svc_valued "$key"',
    "  local valued=$REPLY pos=0 pending='' dashdash=''",
    '  for ((; i < n; i++)); do',
    '    local w=${words[i]}',
    '    if [[ -n $pending ]]; then',
    '      [[ $_svc_forwarded == *" $pending "* ]] && _svc_ctx+=("-$pending=$w")',
    "      pending=''; continue",
    '    fi',
    '    if [[ -z $dashdash && $w == -- ]]; then dashdash=1; continue; fi',
    '    if [[ -z $dashdash && $w == -?* ]]; then',
    '      local name=${w#-}; name=${name#-}',
    '      [[ $name == *=* && $_svc_forwarded == *" ${name%%=*} "* ]] && _svc_ctx+=("-$name")',
    '      [[ $name != *=* && $valued == *" $name "* ]] && pending=$name',
    '      continue',
    '    fi',
    '    ((pos++))',
    '  done',
    '  if [[ -n $pending ]]; then',
    '    _svc_value_spec "$key|-$pending"',
    '    _svc_values "$REPLY" "$cur" \'\'',
    '    return 0',
    '  fi',
    '  if [[ -z $dashdash && $cur == -*=* ]]; then',
    '    local flag=${cur%%=*} name=${cur%%=*}',
    '    name=${name#-}; name=${name#-}',
    '    _svc_value_spec "$key|-$name"',
    '    _svc_values "$REPLY" "${cur#*=}" "$flag="',
    '    return 0',
    '  fi',
    '  if [[ ( -n $dashdash || $cur != -* ) && $cur =~ ^[A-Za-z_][A-Za-z0-9_]*= ]]; then',
    '    _svc_value_spec "$key@${cur%%=*}"',
    '    if [[ -n $REPLY ]]; then',
    '      _svc_values "$REPLY" "${cur#*=}" "${cur%%=*}="',
    '      return 0',
    '    fi',
    '  fi',
    '  if [[ -z $dashdash && $cur == -* ]]; then',
    '    _svc_flags "$key"',
    '    COMPREPLY=($(compgen -W "$REPLY" -- "$cur"))',
    '    [[ ${#COMPREPLY[@]} -eq 1 && ${COMPREPLY[0]} == *= ]] && compopt -o nospace 2>/dev/null',
    '    return 0',
    '  fi',
    '  _svc_words "$key"',
    '  if [[ -n $REPLY && $pos -eq 0 ]]; then',
    '    COMPREPLY=($(compgen -W "$REPLY" -- "$cur"))',
    '    return 0',
    '  fi',
    '  _svc_value_spec "$key#$pos"',
    '  _svc_values "$REPLY" "$cur" \'\'',
    '  return 0',
    '}',
    '',
    'complete -F _svc svc',
  );
  return `${L.join('\n')}\n`;
}

/** zsh: `_describe` entries are `name:description` with colons in the name escaped. */
const zdesc = (name: string, description: string) => shq(`${name.replace(/:/g, '\\:')}:${brief(description)}`);

export function renderZsh(nodes: CompletionNode[], forwarded: string[]): string {
  const L: string[] = [];
  L.push(
    '#compdef svc',
    '# zsh completion for svc.',
    `# ${GENERATED}`,
    '# Install: copy this file to a directory on $fpath as _svc, or: source <(svc completion zsh)',
    '',
    '# The options of the line passed on to `svc __complete` (which server, namespace, mount ...).',
    `_svc_forwarded=${shq(` ${forwarded.join(' ')} `)}`,
    '',
    '# The subcommands of the words in $1, as name:description.',
    '_svc_words() {',
    '  case "$1" in',
  );
  for (const n of nodes) if (n.subcommands.length > 0) L.push(`    ${shq(n.key)}) reply=(${n.subcommands.map((s) => zdesc(s.name, s.synopsis)).join(' ')}) ;;`);
  L.push('    *) reply=() ;;', '  esac', '}', '');
  L.push('# The flags of the command in $1 that take no value, as name:description.', '_svc_bool_flags() {', '  case "$1" in');
  for (const n of nodes) {
    const fl = (n.command?.flags ?? []).filter((f) => !f.takesValue);
    if (fl.length > 0) L.push(`    ${shq(n.key)}) reply=(${fl.map((f) => zdesc(`-${f.name}`, f.description)).join(' ')}) ;;`);
  }
  L.push('    *) reply=() ;;', '  esac', '}', '');
  L.push('# The flags of the command in $1 that take a value, as name=:description.', '_svc_value_flags() {', '  case "$1" in');
  for (const n of nodes) {
    const fl = (n.command?.flags ?? []).filter((f) => f.takesValue);
    if (fl.length > 0) L.push(`    ${shq(n.key)}) reply=(${fl.map((f) => zdesc(`-${f.name}=`, f.description)).join(' ')}) ;;`);
  }
  L.push('    *) reply=() ;;', '  esac', '}', '');
  L.push('# Every name (aliases too) of the flags of $1 that take a value, to skip their values.', '_svc_valued() {', '  case "$1" in');
  for (const n of nodes) {
    const names = (n.command?.flags ?? []).filter((f) => f.takesValue).flatMap((f) => [f.name, ...f.aliases]);
    if (names.length > 0) L.push(`    ${shq(n.key)}) REPLY=${shq(` ${names.join(' ')} `)} ;;`);
  }
  L.push("    *) REPLY='' ;;", '  esac', '}', '');
  L.push('# What to offer for a value: $1 is "<words>|-<flag>" or "<words>#<argument index>".', '_svc_value_spec() {', '  case "$1" in');
  for (const b of valueBranches(nodes)) L.push(`    (${shPattern(b.keys)}) REPLY=${shq(b.spec)} ;;`);
  L.push("    *) REPLY='' ;;", '  esac', '}', '');
  L.push(
    '# Offers the values of spec $1 for the word being completed (any "-flag=" already set aside).',
    '_svc_values() {',
    '  local spec=$1',
    '  local -a vals',
    '  case $spec in',
    "    choices:*) vals=(${(s: :)${spec#choices:}}); compadd -a vals ;;",
    '    file) _files ;;',
    '    dir) _files -/ ;;',
    '    dynamic:*)',
    '      vals=(${(f)"$($_svc_prog __complete $_svc_ctx ${spec#dynamic:} -- $PREFIX 2>/dev/null)"})',
    '      # A directory-like value (a secrets path ending in /) takes no space after it, as a directory.',
    '      local -a dirs=(${(M)vals:#*/})',
    '      vals=(${vals:#*/})',
    "      compadd -S '' -a dirs",
    '      compadd -a vals ;;',
    '  esac',
    '}',
    '',
    '_svc() {',
    '  local cur=${words[CURRENT]} key=\'\' i=2 REPLY',
    '  local -a reply _svc_ctx',
    '  local _svc_prog=${words[1]}',
    '  while (( i < CURRENT )); do',
    '    _svc_words "$key"',
    '    (( ${reply[(I)${words[i]}:*]} )) || break',
    '    key=${key:+$key }${words[i]}',
    '    (( i++ ))',
    '  done',
    '  _svc_valued "$key"',
    "  local valued=$REPLY pos=0 pending='' dashdash='' w name",
    '  for (( ; i < CURRENT; i++ )); do',
    '    w=${words[i]}',
    '    if [[ -n $pending ]]; then',
    '      [[ $_svc_forwarded == *" $pending "* ]] && _svc_ctx+=("-$pending=${(Q)w}")',
    "      pending=''; continue",
    '    fi',
    '    if [[ -z $dashdash && $w == -- ]]; then dashdash=1; continue; fi',
    '    if [[ -z $dashdash && $w == -?* ]]; then',
    '      name=${w#-}; name=${name#-}',
    '      [[ $name == *=* && $_svc_forwarded == *" ${name%%=*} "* ]] && _svc_ctx+=("-${(Q)name}")',
    '      [[ $name != *=* && $valued == *" $name "* ]] && pending=$name',
    '      continue',
    '    fi',
    '    (( pos++ ))',
    '  done',
    '  if [[ -n $pending ]]; then',
    '    _svc_value_spec "$key|-$pending"; _svc_values "$REPLY"; return',
    '  fi',
    '  if [[ -z $dashdash && $cur == -*=* ]]; then',
    '    name=${cur%%=*}; name=${name#-}; name=${name#-}',
    '    compset -P \'*=\'',
    '    _svc_value_spec "$key|-$name"; _svc_values "$REPLY"; return',
    '  fi',
    "  if [[ ( -n $dashdash || $cur != -* ) && $cur =~ '^[A-Za-z_][A-Za-z0-9_]*=' ]]; then",
    '    _svc_value_spec "$key@${cur%%=*}"',
    '    if [[ -n $REPLY ]]; then',
    "      compset -P '[^=]#='",
    '      _svc_values "$REPLY"; return',
    '    fi',
    '  fi',
    '  if [[ -z $dashdash && $cur == -* ]]; then',
    '    _svc_bool_flags "$key"; local -a bools=("${reply[@]}")',
    '    _svc_value_flags "$key"; local -a valued_flags=("${reply[@]}")',
    "    (( ${#bools} )) && _describe -t flags 'flag' bools",
    "    (( ${#valued_flags} )) && _describe -t flags 'flag' valued_flags -S ''",
    '    return',
    '  fi',
    '  _svc_words "$key"',
    '  if (( ${#reply} && pos == 0 )); then',
    "    _describe -t commands 'command' reply",
    '    return',
    '  fi',
    '  _svc_value_spec "$key#$pos"; _svc_values "$REPLY"',
    '}',
    '',
    '# Autoloaded from $fpath the file is the body of _svc; sourced, it registers the function.',
    'if [[ $funcstack[1] == _svc ]]; then',
    '  _svc "$@"',
    'else',
    '  compdef _svc svc',
    'fi',
  );
  return `${L.join('\n')}\n`;
}

export function renderFish(nodes: CompletionNode[], forwarded: string[]): string {
  const L: string[] = [];
  L.push(
    '# fish completion for svc.',
    `# ${GENERATED}`,
    '# Install: copy this file to ~/.config/fish/completions/svc.fish, or: svc completion fish | source',
    '',
    '# The options of the line passed on to `svc __complete` (which server, namespace, mount ...).',
    `set -g __svc_forwarded ${forwarded.map(fishq).join(' ')}`,
    '',
    '# The subcommands of the words in $argv[1], as name<TAB>description.',
    'function __svc_words',
    '    switch $argv[1]',
  );
  for (const n of nodes) {
    if (n.subcommands.length === 0) continue;
    L.push(`        case ${fishq(n.key)}`, `            printf '%s\\n' ${n.subcommands.map((s) => fishq(`${s.name}\t${brief(s.synopsis)}`)).join(' ')}`);
  }
  L.push('    end', 'end', '');
  L.push('# The flags of the command in $argv[1]; a trailing = marks a flag that takes a value.', 'function __svc_flags', '    switch $argv[1]');
  for (const n of nodes) {
    if (!n.command || n.command.flags.length === 0) continue;
    L.push(`        case ${fishq(n.key)}`, `            printf '%s\\n' ${n.command.flags.map((f) => fishq(`-${f.name}${f.takesValue ? '=' : ''}\t${brief(f.description)}`)).join(' ')}`);
  }
  L.push('    end', 'end', '');
  L.push('# Every name (aliases too) of the flags of $argv[1] that take a value, to skip their values.', 'function __svc_valued', '    switch $argv[1]');
  for (const n of nodes) {
    const names = (n.command?.flags ?? []).filter((f) => f.takesValue).flatMap((f) => [f.name, ...f.aliases]);
    if (names.length > 0) L.push(`        case ${fishq(n.key)}`, `            printf '%s\\n' ${names.map(fishq).join(' ')}`);
  }
  L.push('    end', 'end', '');
  L.push('# What to offer for a value: $argv[1] is "<words>|-<flag>" or "<words>#<argument index>".', 'function __svc_value_spec', '    switch $argv[1]');
  for (const b of valueBranches(nodes)) L.push(`        case ${fishPattern(b.keys)}`, `            echo ${fishq(b.spec)}`);
  L.push('    end', 'end', '');
  L.push(
    '# Prints the values of spec $argv[1] that start with $argv[2], each prefixed with $argv[3].',
    'function __svc_values',
    '    set -l spec $argv[1]',
    '    set -l cur $argv[2]',
    '    set -l prefix $argv[3]',
    '    switch $spec',
    "        case 'choices:*'",
    '            for v in (string split " " (string replace "choices:" "" -- "$spec"))',
    '                string match -q -- "$cur*" "$v"; and echo -- "$prefix$v"',
    '            end',
    '        case file',
    '            for v in (__fish_complete_path "$cur")',
    '                echo -- "$prefix$v"',
    '            end',
    '        case dir',
    '            for v in (__fish_complete_directories "$cur")',
    '                echo -- "$prefix$v"',
    '            end',
    "        case 'dynamic:*'",
    '            for v in ($__svc_prog __complete $__svc_ctx (string replace "dynamic:" "" -- "$spec") -- "$cur" 2>/dev/null)',
    '                echo -- "$prefix$v"',
    '            end',
    '    end',
    'end',
    '',
    'function __svc_complete',
    '    set -l words (commandline -opc)',
    '    set -l cur (commandline -ct)',
    '    set -g __svc_prog $words[1]',
    '    set -g __svc_ctx',
    "    set -l key ''",
    '    set -l i 2',
    '    set -l n (count $words)',
    '    while test $i -le $n',
    '        set -l subs (__svc_words "$key" | string replace -r "\\t.*" "")',
    '        contains -- $words[$i] $subs; or break',
    '        set key (string trim -- "$key $words[$i]")',
    '        set i (math $i + 1)',
    '    end',
    '    set -l valued (__svc_valued "$key")',
    '    set -l pos 0',
    "    set -l pending ''",
    '    set -l dashdash 0',
    '    while test $i -le $n',
    '        set -l w $words[$i]',
    '        set i (math $i + 1)',
    '        if test -n "$pending"',
    '            contains -- $pending $__svc_forwarded; and set -a __svc_ctx "-$pending=$w"',
    "            set pending ''",
    '            continue',
    '        end',
    '        if test $dashdash = 0; and test "$w" = --',
    '            set dashdash 1',
    '            continue',
    '        end',
    '        if test $dashdash = 0; and string match -qr -- "^-." "$w"',
    '            set -l name (string replace -r -- "^--?" "" "$w")',
    '            if string match -q -- "*=*" "$name"; and contains -- (string replace -r -- "=.*" "" "$name") $__svc_forwarded',
    '                set -a __svc_ctx "-$name"',
    '            end',
    '            if not string match -q -- "*=*" "$name"; and contains -- $name $valued',
    '                set pending $name',
    '            end',
    '            continue',
    '        end',
    '        set pos (math $pos + 1)',
    '    end',
    '    if test -n "$pending"',
    '        set -l spec (__svc_value_spec "$key|-$pending")',
    '        __svc_values "$spec" "$cur" ""',
    '        return',
    '    end',
    '    if test $dashdash = 0; and string match -qr -- "^-.*=" "$cur"',
    '        set -l flag (string replace -r -- "=.*" "" "$cur")',
    '        set -l name (string replace -r -- "^--?" "" "$flag")',
    '        set -l spec (__svc_value_spec "$key|-$name")',
    '        __svc_values "$spec" (string replace -r -- "^[^=]*=" "" "$cur") "$flag="',
    '        return',
    '    end',
    '    if begin; test $dashdash = 1; or not string match -q -- "-*" "$cur"; end; and string match -qr -- "^[A-Za-z_][A-Za-z0-9_]*=" "$cur"',
    '        set -l name (string replace -r -- "=.*" "" "$cur")',
    '        set -l spec (__svc_value_spec "$key@$name")',
    '        if test -n "$spec"',
    '            __svc_values "$spec" (string replace -r -- "^[^=]*=" "" "$cur") "$name="',
    '            return',
    '        end',
    '    end',
    '    if test $dashdash = 0; and string match -q -- "-*" "$cur"',
    '        __svc_flags "$key"',
    '        return',
    '    end',
    '    set -l subs (__svc_words "$key")',
    '    if test (count $subs) -gt 0; and test $pos = 0',
    "        printf '%s\\n' $subs",
    '        return',
    '    end',
    '    set -l spec (__svc_value_spec "$key#$pos")',
    '    __svc_values "$spec" "$cur" ""',
    'end',
    '',
    "complete -c svc -f -a '(__svc_complete)'",
  );
  return `${L.join('\n')}\n`;
}

export function renderCompletion(shell: Shell, commands: CommandSpec[], groups: GroupSpec[], flagSets: FlagSetTable): string {
  const nodes = completionModel(commands, groups, flagSets);
  const forwarded = forwardedFlags(commands, flagSets);
  switch (shell) {
    case 'bash':
      return renderBash(nodes, forwarded);
    case 'zsh':
      return renderZsh(nodes, forwarded);
    case 'fish':
      return renderFish(nodes, forwarded);
  }
}
