# tmux_lib.sh - a tmux server of the test's own (sourced after tests/lib.sh
# by tests/explore_lib.sh and tests/e2e/terminal.sh).
#
# new_server: the server before it ended, a socket of its own for the next
# (a new server never meets a dying one); after tmx new-session,
# server_started notes its pid.  At the test's end, also when a signal
# (a timeout's SIGTERM, ^C) ends it, the server is killed by its socket
# and, if it outlives that, by its pid: never by a pattern, which would
# take other runs' servers.  The scratch directory goes with it.

runs=0
SOCK="$TMP/tmux.0"
SERVER_PID=""
tmx() { tmux -S "$SOCK" "$@"; }

# server_started: the pid of the server tmx just started
server_started() { SERVER_PID=$(tmx display-message -p '#{pid}' 2>/dev/null); }

# end_server: the server of $SOCK ends, with what runs in it
end_server() {
	tmx kill-server 2>/dev/null
	if [ -n "$SERVER_PID" ]; then
		_i=0
		while kill -0 "$SERVER_PID" 2>/dev/null && [ "$_i" -lt 20 ]; do
			sleep 0.1
			_i=$((_i + 1))
		done
		case $(ps -o comm= -p "$SERVER_PID" 2>/dev/null) in
		tmux*) kill -KILL "$SERVER_PID" 2>/dev/null ;;	# "tmux: server"
		esac
	fi
	SERVER_PID=""
}

new_server() {
	end_server
	runs=$((runs + 1))
	SOCK="$TMP/tmux.$runs"
}

tmux_cleanup() { end_server; rm -rf "$TMP"; }
trap tmux_cleanup EXIT
trap 'tmux_cleanup; trap - EXIT; exit 129' HUP
trap 'tmux_cleanup; trap - EXIT; exit 130' INT
trap 'tmux_cleanup; trap - EXIT; exit 143' TERM
