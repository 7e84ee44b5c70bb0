# python_path.sh - call python3 directly, not through a version manager's shim
#
#   . tests/python_path.sh; python_direct DIR
#
# When `python3` on PATH is a shim (pyenv's: a chain of bash scripts run
# on every call, about 0.8 s of CPU each on the 2-CPU test machine, ten
# times the interpreter's own start), ask it once which interpreter it
# runs, link that as DIR/bin/python3 and put DIR/bin first on PATH.  The
# tests then run the same python3 as before, without the shim.  Done once
# for the whole run (tests/run.sh exports SL_PYTHON_DIRECT); a test run
# alone does it for itself.
python_direct() {
	[ -n "${SL_PYTHON_DIRECT:-}" ] && return 0
	case $(command -v python3) in
	*/shims/*) ;;
	*) return 0 ;;
	esac
	_py=$(python3 -c 'import sys; print(sys.executable)' 2>/dev/null)
	[ -x "$_py" ] || return 0
	mkdir -p "$1/bin" && ln -sf "$_py" "$1/bin/python3" || return 0
	PATH="$1/bin:$PATH"
	SL_PYTHON_DIRECT=$_py
	export PATH SL_PYTHON_DIRECT
}
