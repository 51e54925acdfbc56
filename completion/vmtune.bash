# vmtune.bash - bash completion for vmtune: commands, each command's options,
# knob names (also inside --knobs LISTs and KNOB=VALUE), the values an option
# lists in its usage (--format sysctl|tuned|..., --strategy, --objective), the
# built-in workloads, stored run ids, profile files and directories.
#
# Everything is read from the vmtune being completed (its --help, 'knobs',
# 'runs'), so this file never falls behind the program. Installed by
# 'make install' into bash-completion's completions directory.

_vmtune_cmd() { # the vmtune being completed, with the global options typed so far
	"${_vmtune_prog[@]}" "$@" 2>/dev/null
}

_vmtune_knobs() { # every knob in the catalogue (get, set)
	_vmtune_cmd knobs | awk 'NR > 1 && $1 ~ /^[a-z_0-9-]+\.[a-z_0-9.-]+$/ { print $1 }'
}

_vmtune_searchable() { # the knobs a search can vary here, and the pseudo-knob swap
	_vmtune_cmd knobs | awk 'NR > 1 && $1 ~ /^[a-z_0-9-]+\.[a-z_0-9.-]+$/ && / available / { print $1 }'
	echo swap
}

# the values of option $1 in the usage line of command $2, when it lists them
# as --OPT a|b|c
_vmtune_choices() {
	_vmtune_cmd "$2" --help | sed -n '1p' | grep -oE -- "$1 [a-z0-9+]+(\|[a-z0-9+]+)+" |
		head -n 1 | cut -d' ' -f2 | tr '|' '\n'
}

_vmtune() {
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
	local -a _vmtune_prog=("${COMP_WORDS[0]}")
	local i cmd= w

	COMPREPLY=()
	# the command: the first word that is not a global option or its argument
	for ((i = 1; i < COMP_CWORD; i++)); do
		w=${COMP_WORDS[i]}
		case $w in
		--root | --state-dir | --db | --machine)
			_vmtune_prog+=("$w" "${COMP_WORDS[i + 1]}")
			((i++))
			;;
		-*) ;;
		*)
			cmd=$w
			break
			;;
		esac
	done

	# an option's argument
	case $prev in
	--root | --state-dir)
		compopt -o filenames 2>/dev/null
		mapfile -t COMPREPLY < <(compgen -d -- "$cur")
		return
		;;
	--db | --machine | --mix | -o | --out | --html)
		compopt -o filenames 2>/dev/null
		mapfile -t COMPREPLY < <(compgen -f -- "$cur")
		return
		;;
	-k | --knobs)
		# a comma-separated list: complete the last element
		local pre=${cur%,*} last=${cur##*,}
		[ "$pre" = "$cur" ] && pre= || pre+=,
		compopt -o nospace 2>/dev/null
		mapfile -t COMPREPLY < <(compgen -P "$pre" -W "$(_vmtune_searchable)" -- "$last")
		return
		;;
	-w | --workload | --probe)
		mapfile -t COMPREPLY < <(compgen -W "$(_vmtune_cmd run --help |
			awk '/^built-in workloads/ { on = 1; next } on && /^  [a-z]/ { print $1 } on && /^$/ { on = 0 }') exec:" \
			-- "$cur")
		return
		;;
	--resume)
		mapfile -t COMPREPLY < <(compgen -W "$(_vmtune_cmd runs | awk 'NR > 1 && $1 ~ /^[0-9]+$/ { print $1 }')" -- "$cur")
		return
		;;
	--set)
		compopt -o nospace 2>/dev/null
		mapfile -t COMPREPLY < <(compgen -S = -W "$(_vmtune_knobs)" -- "$cur")
		return
		;;
	--*)
		if [ -n "$cmd" ]; then
			local choices
			choices=$(_vmtune_choices "$prev" "$cmd")
			# recommend takes search's objectives
			[ -n "$choices" ] || [ "$prev" != --objective ] || choices=$(_vmtune_choices "$prev" search)
			if [ -n "$choices" ]; then
				mapfile -t COMPREPLY < <(compgen -W "$choices" -- "$cur")
				return
			fi
		fi
		;;
	esac

	if [ -z "$cmd" ]; then
		if [[ $cur == -* ]]; then
			mapfile -t COMPREPLY < <(compgen -W "$(_vmtune_cmd --help | grep -oE -- '--[a-z][a-z0-9-]*' | sort -u) --help" -- "$cur")
		else
			mapfile -t COMPREPLY < <(compgen -W "$(_vmtune_cmd --help |
				awk '/^commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 } on && /^$/ { on = 0 }')" -- "$cur")
		fi
		return
	fi

	if [[ $cur == -* ]]; then
		# the command's own options (the global ones are given before it)
		mapfile -t COMPREPLY < <(compgen -W "$(_vmtune_cmd "$cmd" --help |
			sed '/^global options:/,$d' | grep -oE -- '--[a-z][a-z0-9-]*' | sort -u)" -- "$cur")
		return
	fi

	# positional arguments
	case $cmd in
	get)
		mapfile -t COMPREPLY < <(compgen -W "$(_vmtune_knobs)" -- "$cur")
		;;
	set)
		compopt -o nospace 2>/dev/null
		mapfile -t COMPREPLY < <(compgen -S = -W "$(_vmtune_knobs)" -- "$cur")
		;;
	db)
		if [ "$prev" = db ]; then
			mapfile -t COMPREPLY < <(compgen -W "export import merge" -- "$cur")
		else
			compopt -o filenames 2>/dev/null
			mapfile -t COMPREPLY < <(compgen -f -- "$cur")
		fi
		;;
	report)
		# a stored run's id, or a profile
		compopt -o filenames 2>/dev/null
		mapfile -t COMPREPLY < <(
			compgen -W "$(_vmtune_cmd runs | awk 'NR > 1 && $1 ~ /^[0-9]+$/ { print $1 }')" -- "$cur"
			compgen -f -X '!*.yaml' -- "$cur"
			compgen -d -- "$cur"
		)
		;;
	apply | verify | export | install-boot)
		# profiles: YAML files, and directories to find them in
		compopt -o filenames 2>/dev/null
		mapfile -t COMPREPLY < <(
			compgen -f -X '!*.yaml' -- "$cur"
			compgen -d -- "$cur"
		)
		;;
	esac
}

complete -F _vmtune vmtune
