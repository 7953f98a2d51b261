# Completes lines in a real interactive zsh, as a TAB typed at the prompt would, and prints the matches.
# Usage: zsh -f zsh-complete.zsh DUMP-FILE COMPLETION-SCRIPT LINE...
# For each LINE: the matches, one per line, then a line holding only \x1e.
#
# Each line gets a fresh `zsh -f -i` on a pseudo-terminal (zpty) with the completion system loaded
# (compinit; DUMP-FILE caches its function list) and the script sourced. compadd is wrapped to print
# what the completion system actually adds after matching (`compadd -A`); compprefuncs and
# comppostfuncs print a NUL line around the completion and then leave the shell, so the output between
# the two NUL lines is exactly this completion's.
zmodload zsh/zpty || exit 2
dump=$1 script=$2
shift 2
for line in "$@"; do
  zpty session zsh -f -i
  zpty -w session 'PROMPT= RPROMPT='
  zpty -w session "autoload -Uz compinit; compinit -u -d ${(q)dump}"
  zpty -w session "bindkey '^I' complete-word"
  zpty -w session "_null_line() { echo -E - \$'\\0' }"
  zpty -w session 'compprefuncs=(_null_line); comppostfuncs=(_null_line exit)'
  zpty -w session 'compadd() {
    if [[ ${@[1,(i)(-|--)]} == *-(O|A|D)\ * ]]; then builtin compadd "$@"; return; fi
    local -a hits
    builtin compadd -A hits "$@"
    local h
    for h in $hits; do echo -E - "MATCH:$h"; done
  }'
  zpty -w session "source ${(q)script}"
  zpty -w -n session "$line"$'\t'
  integer nulls=0
  while zpty -r session chunk; do print -rn -- "$chunk"; done | while IFS= read -r out; do
    out=${out%$'\r'}
    if [[ $out == *$'\0'* ]]; then (( nulls++ )); continue; fi
    (( nulls == 1 )) && [[ $out == MATCH:* ]] && print -r -- "${out#MATCH:}"
  done
  print -r -- $'\x1e'
  zpty -d session
done
