# bash completion for warplab: the commands, each command's options
# (those of `warplab CMD --help`; tests/cli/install.sh checks that they
# agree), the words some options take, and files (.litmus, .lua, .cat
# where a command reads them).  Installed by `make install` into
# $(PREFIX)/share/bash-completion/completions/warplab.

_warplab_opts() {
  case $1 in
  litmus) echo "--json --herd --model --unroll --timeout --max-memory
            --count-executions --full-states -q --quiet --check-error
            --no-checks --no-symmetry --no-prefix --no-stutter
            --no-thin-air-filter --no-commute --search --graph --why-not
            -j --jobs --help" ;;
  sample) echo "--json -n --runs --seed --profile --harness -j --jobs --timeout
            --max-steps --no-exact --help" ;;
  gen) echo "--cycle --family --edges --max-size --random --copies --threads
            --insns --locs --mix --sample --annotations --placements
            --scopes --count --seed -o --list --explore --unroll --families
            --help" ;;
  cuda) echo "-o --blocks --threads --launches --stress --stress-iters
            --spacing --seed --budget --no-shuffle --rounds --sm --harness
            --sync --sync-spins --place --pre-stress --stress-pattern
            --stress-lines --line-words --delay --gap --tune --stream -j --jobs
            --help" ;;
  compare) echo "--model --summary -j --jobs --help" ;;
  run) echo "--check --check-error --json --jobs --help" ;;
  report) echo "-o --output --runs --seed --graphs --title --model -j --jobs
            --help" ;;
  campaign) echo "-o --dir --shards --list --json --herd --litmus-arg --sbatch
            --warplab --warplab-mpi --ranks --submit --help" ;;
  merge) echo "-o --output --help" ;;
  esac
}

_warplab() {
  local cur prev cmd words
  COMPREPLY=()
  cur=${COMP_WORDS[COMP_CWORD]}
  prev=${COMP_WORDS[COMP_CWORD-1]}
  if [ "$COMP_CWORD" -eq 1 ]; then
    words="litmus sample gen cuda compare run report campaign merge help
           version --help
           --version"
    COMPREPLY=($(compgen -W "$words" -- "$cur"))
    return 0
  fi
  cmd=${COMP_WORDS[1]}
  case $cmd in
  help)
    COMPREPLY=($(compgen -W "litmus sample gen cuda compare run report
      campaign merge" \
      -- "$cur"))
    return 0 ;;
  esac
  # the words an option takes
  case $prev in
  --search) COMPREPLY=($(compgen -W "auto values rf" -- "$cur")); return 0 ;;
  --profile) COMPREPLY=($(compgen -W "weak h100" -- "$cur")); return 0 ;;
  --sm) COMPREPLY=($(compgen -W "any same different" -- "$cur")); return 0 ;;
  --family)
    COMPREPLY=($(compgen -W "all MP SB LB S R 2+2W WRC RWC WWC IRIW ISA2
      W+RWC 3.SB 3.LB 3.2W CoRR CoRW CoWR" -- "$cur"))
    return 0 ;;
  --annotations) COMPREPLY=($(compgen -W "weak rlx ra mix" -- "$cur")); return 0 ;;
  --placements) COMPREPLY=($(compgen -W "cta gpu sys mix" -- "$cur")); return 0 ;;
  --scopes) COMPREPLY=($(compgen -W "cta gpu sys" -- "$cur")); return 0 ;;
  --harness) COMPREPLY=($(compgen -W "plain sync stress parallel delay" -- "$cur"))
    return 0 ;;
  --stress-pattern) COMPREPLY=($(compgen -W "random ss sl ls ll" -- "$cur"))
    return 0 ;;
  --summary) COMPREPLY=($(compgen -d -- "$cur")); return 0 ;;
  --model) COMPREPLY=($(compgen -f -X '!*.cat' -- "$cur") $(compgen -d -- "$cur"))
    return 0 ;;
  --graph|--dir) COMPREPLY=($(compgen -d -- "$cur")); return 0 ;;
  --list|--warplab|--warplab-mpi) COMPREPLY=($(compgen -f -- "$cur")); return 0 ;;
  -o|--output) COMPREPLY=($(compgen -f -- "$cur")); return 0 ;;
  --unroll|--timeout|--max-memory|-n|--runs|--seed|-j|--jobs|--max-steps|\
  --cycle|--edges|--max-size|--threads|--insns|--locs|--mix|--count|\
  --blocks|--launches|--stress|--stress-iters|--spacing|--budget|--rounds|\
  --sync|--sync-spins|--place|--pre-stress|--stress-lines|--line-words|\
  --delay|--gap|--stream|\
  --graphs|--title|--shards|--litmus-arg|--sbatch|--ranks)
    return 0 ;;
  esac
  if [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "$(_warplab_opts "$cmd")" -- "$cur"))
    return 0
  fi
  case $cmd in
  litmus|sample|cuda|compare)
    COMPREPLY=($(compgen -f -X '!*.litmus' -- "$cur") $(compgen -d -- "$cur")) ;;
  run) COMPREPLY=($(compgen -f -X '!*.lua' -- "$cur") $(compgen -d -- "$cur")) ;;
  report|merge) COMPREPLY=($(compgen -f -- "$cur")) ;;
  campaign)
    COMPREPLY=($(compgen -f -X '!*.litmus' -- "$cur") $(compgen -d -- "$cur")) ;;
  esac
  return 0
}
complete -F _warplab warplab
