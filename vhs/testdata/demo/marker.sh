# marker.sh: sourced by tree.sh and leftovers.sh (bash only, no forks in the
# scan). It defines the marker every process of the demo tree carries in its
# environment, and a /proc scan for it.
#
# The marker is DEMO_MARK when set, else one derived from $HOME: the tape
# runner gives every replay a private HOME, so parallel replays never see
# each other's processes, and the marker itself never reaches the screen.

if [ -z "${DEMO_MARK:-}" ]; then
	DEMO_MARK=demo-tree-$(printf '%s' "$HOME" | cksum | cut -d' ' -f1)
fi

# marked_procs fills the array MARKED with "argv0" of every live process
# (not a zombie) whose initial environment holds DEMO_MARK=<marker> exactly.
# It skips the calling shell ($$) and reads /proc with builtins only, so it
# forks nothing that could match itself.
marked_procs() {
	MARKED=()
	local d pid stat state want="DEMO_MARK=$DEMO_MARK" x
	local -a env argv
	for d in /proc/[0-9]*; do
		pid=${d#/proc/}
		[ "$pid" = "$$" ] && continue
		read -r stat 2>/dev/null <"$d/stat" || continue
		state=${stat##*) }
		state=${state%% *}
		[ "$state" = Z ] && continue
		mapfile -d '' env 2>/dev/null <"$d/environ" || continue
		for x in "${env[@]}"; do
			if [ "$x" = "$want" ]; then
				mapfile -d '' argv 2>/dev/null <"$d/cmdline"
				MARKED+=("${argv[0]:-?}")
				break
			fi
		done
	done
}
