# bash completion for schedlint                        -*- shell-script -*-
#
# Installed by `make install` as
# $(PREFIX)/share/bash-completion/completions/schedlint; or: . scripts/schedlint.bash
#
# Commands, their options (read from `schedlint CMD --help`, so they never
# go stale), option values (metric names from `schedlint diff
# --list-metrics`, --color, --reader, --slice-model), and traces: *.dat
# first, else any file.

_schedlint_opts()
{
	# every --option the command's help names; "=" kept for those taking a value
	"$1" "$2" --help 2>/dev/null | grep -o -- '--[a-z][a-z0-9-]*\(=\|\[=\)\?' |
		sed 's/\[=$/=/' | sort -u
}

_schedlint_metrics()
{
	"$1" diff --list-metrics 2>/dev/null | awk '/^  [a-z]/ { sub(/COMM.*/, "", $1); print $1 }' | sort -u
}

_schedlint()
{
	local cur prev cmd i prog=${COMP_WORDS[0]}
	COMPREPLY=()
	cur=${COMP_WORDS[COMP_CWORD]}
	prev=${COMP_WORDS[COMP_CWORD - 1]}

	for ((i = 1; i < COMP_CWORD; i++)); do
		case ${COMP_WORDS[i]} in
		-*) ;;
		*) cmd=${COMP_WORDS[i]}; break ;;
		esac
	done
	if [[ -z $cmd ]]; then
		COMPREPLY=($(compgen -W "analyze diff dump explore export record timehist help version --no-pager --help --version" -- "$cur"))
		return
	fi
	[[ $cmd == analyse ]] && cmd=analyze
	case $cmd in
	help)
		COMPREPLY=($(compgen -W "analyze diff dump explore export record timehist" -- "$cur"))
		return ;;
	analyze | diff | dump | explore | export | record | timehist) ;;
	*) return ;;
	esac
	# --opt=value arrives as "--opt" "=" "value" (COMP_WORDBREAKS has "=")
	if [[ $cur == = ]]; then
		cur=""
	elif [[ $prev == = ]]; then
		prev=${COMP_WORDS[COMP_CWORD - 2]}
	fi
	case $prev in
	--fail-on)
		compopt -o nospace 2>/dev/null
		# diff's default gate and no rules at all, besides the metrics
		local words
		words=$(_schedlint_metrics "$prog")
		[[ $cmd == diff ]] && words="$words default none"
		COMPREPLY=($(compgen -W "$words" -- "$cur"))
		return ;;
	--color)
		COMPREPLY=($(compgen -W "auto always never" -- "$cur"))
		return ;;
	--reader)
		COMPREPLY=($(compgen -W "flyrecord libtracecmd" -- "$cur"))
		return ;;
	--slice-model)
		COMPREPLY=($(compgen -W "eevdf cfs" -- "$cur"))
		return ;;
	-o | --output | -i | --junit)
		compopt -o filenames 2>/dev/null
		mapfile -t COMPREPLY < <(compgen -f -- "$cur")
		return ;;
	esac
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$(_schedlint_opts "$prog" "$cmd")" -- "$cur"))
		[[ ${#COMPREPLY[@]} == 1 && ${COMPREPLY[0]} == *= ]] && compopt -o nospace 2>/dev/null
		return
	fi
	[[ $cmd == record ]] && return
	# traces: trace.dat files and directories, else anything (text traces, JSON reports)
	# (one name a line: a name with a space stays one, issue 32, 10)
	compopt -o filenames 2>/dev/null
	mapfile -t COMPREPLY < <(compgen -f -X '!*.dat' -- "$cur"; compgen -d -- "$cur")
	[[ ${#COMPREPLY[@]} == 0 ]] && mapfile -t COMPREPLY < <(compgen -f -- "$cur")
	return 0
}
complete -F _schedlint schedlint
