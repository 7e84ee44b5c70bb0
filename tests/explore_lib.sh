# explore_lib.sh - drive schedlint explore in tmux (sourced by tests/e2e/explore*.sh
# after tests/lib.sh): a tmux server of its own per run, waits for the text
# expected with a timeout instead of fixed sleeps (the machine may be
# slow), and checks that explore ended and gave the terminal back.

for tool in tmux script; do
	if ! command -v $tool >/dev/null 2>&1; then
		fail "$tool is installed (scripts/install-deps.sh installs it)"
		exit 0
	fi
done

# timeouts (s) are for a loaded machine; the sanitizer build is slower still
SLOW=1
[ "$SANITIZE" = 1 ] && SLOW=4

# a tmux server of our own for each run, ended with the test however it ends
. tests/tmux_lib.sh

# start W H ENV ARGS...: explore in a fresh W x H terminal, under a shell
# that ignores SIGINT (explore catches it itself) and keeps its exit status
# in $TMP/status (128 + N when a signal ended it); PID is explore's.
start() {
	w=$1 h=$2 envs=$3; shift 3
	new_server
	rm -f "$TMP/status"
	tmx new-session -d -s x -x "$w" -y "$h" \
		"trap '' INT; env LANG=C.UTF-8 $envs $SCHEDLINT explore $*; echo \$? > $TMP/status" \; \
		set-option -t x remain-on-exit on
	server_started
	pane=$(tmx list-panes -t x -F '#{pane_pid}')
	PID="" i=0
	while [ -z "$PID" ] && [ "$i" -lt $((300 * SLOW)) ] && [ ! -s "$TMP/status" ]; do
		PID=$(pgrep -P "$pane" | head -n 1)
		sleep 0.1
		i=$((i + 1))
	done
}

screen() { tmx capture-pane -p -t x 2>/dev/null; }

# wait_for TEXT [SECONDS]: until the screen shows TEXT
wait_for() {
	i=0 lim=$(( ${2:-60} * 5 * SLOW ))
	while [ "$i" -lt "$lim" ]; do
		screen > "$TMP/screen"
		grep -qF -- "$1" "$TMP/screen" && return 0
		sleep 0.2
		i=$((i + 1))
	done
	return 1
}

# wait_all REGEX...: until the screen matches every extended regex (60 s)
wait_all() {
	i=0
	while [ "$i" -lt $((300 * SLOW)) ]; do
		screen > "$TMP/screen"
		ok=1
		for re in "$@"; do
			grep -qE -- "$re" "$TMP/screen" || { ok=0; break; }
		done
		[ "$ok" = 1 ] && return 0
		sleep 0.2
		i=$((i + 1))
	done
	return 1
}

# wait_gone TEXT: until the screen no longer shows TEXT (60 s)
wait_gone() {
	i=0
	while [ "$i" -lt $((300 * SLOW)) ]; do
		screen > "$TMP/screen"
		grep -qF -- "$1" "$TMP/screen" || return 0
		sleep 0.2
		i=$((i + 1))
	done
	return 1
}

# settle: until two captures in a row are the same screen (explore has
# drawn all it had to draw); leaves it in $TMP/screen
settle() {
	i=0
	screen > "$TMP/screen"
	while [ "$i" -lt $((300 * SLOW)) ]; do
		sleep 0.2
		screen > "$TMP/screen.next"
		if cmp -s "$TMP/screen" "$TMP/screen.next"; then
			return 0
		fi
		mv "$TMP/screen.next" "$TMP/screen"
		i=$((i + 1))
	done
	return 1
}

# axis: the time axis's line on the screen (the one with its scale, N/col)
axis() { screen | grep -m 1 -- '/col'; }

# moves KEY: press KEY and wait until the time axis has changed (a move or
# a zoom done, not merely sent); fails after 60 s
moves() {
	before=$(axis)
	tmx send-keys -t x "$1"
	i=0
	while [ "$i" -lt $((300 * SLOW)) ]; do
		[ "$(axis)" != "$before" ] && return 0
		sleep 0.2
		i=$((i + 1))
	done
	return 1
}

# widest W: lines wider than W on the screen, counted in characters
wider_than() {
	python3 -c 'import sys; print(sum(len(l.rstrip("\n")) > int(sys.argv[1]) for l in open(sys.argv[2], encoding="utf-8")))' "$1" "$TMP/screen"
}

# see DESCRIPTION TEXT [SECONDS]: a test that the screen comes to show TEXT
see() {
	if wait_for "$2" "$3"; then
		pass "$1"
	else
		fail "$1" "'$2' not on the screen:"
		sed 's/^/#   /' "$TMP/screen"
	fi
}

# wait_dead [SECONDS]: until explore has ended; sets DEAD_STATUS
wait_dead() {
	i=0 lim=$(( ${1:-30} * 5 * SLOW ))
	while [ "$i" -lt "$lim" ]; do
		if [ -s "$TMP/status" ]; then
			DEAD_STATUS=$(cat "$TMP/status")
			return 0
		fi
		sleep 0.2
		i=$((i + 1))
	done
	return 1
}

# ended HOW EXPECT_STATUS: the process is gone, its exit status, and the
# terminal is back (the alternate screen left: no explore text remains)
ended() {
	if ! wait_dead 30; then
		fail "$1: explore ends" "still running after $((30 * SLOW)) s"
		kill -KILL "$PID" 2>/dev/null
		return
	fi
	if [ -z "$PID" ]; then
		fail "$1: the process is gone" "explore's pid was not found"
	elif kill -0 "$PID" 2>/dev/null; then
		fail "$1: the process is gone" "pid $PID still exists"
	else
		pass "$1: the process is gone"
	fi
	expect_eq "$1: exit status" "$DEAD_STATUS" "$2"
	screen > "$TMP/screen"
	if grep -qE "Overview|Findings|Timeline" "$TMP/screen"; then
		fail "$1: the terminal is restored" "explore's screen is still there:"
		sed 's/^/#   /' "$TMP/screen"
	else
		pass "$1: the terminal is restored"
	fi
}

