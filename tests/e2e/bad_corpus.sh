#!/bin/sh
# bad_corpus.sh - every input of testdata/bad/ gets the outcome written
# beside it (testdata/bad/README.md describes the .expect files): exit 2
# with one message naming the file, or a complete analysis with the facts
# and warnings given.  dump must never crash on them either.
. tests/lib.sh
export SCHEDLINT SCHEDGEN TESTDATA
BAD=$TESTDATA/bad

# The trace.dat readers to check a trace.dat with (all that exist).
readers=""
for r in libtracecmd flyrecord; do
	"$SCHEDLINT" dump --reader=$r "$TESTDATA/real/hogs.dat" >/dev/null 2>&1 && readers="$readers $r"
done

# check_one CASE FILE: FILE against CASE.expect, with each reader for a trace.dat
check_one() {
	case=$1 file=$2
	exp=$BAD/$case.expect
	want_exit=$(sed -n 's/^exit //p' "$exp")
	args=$(sed -n 's/^args //p' "$exp")
	rlist=-		# text: no reader to choose
	head -c 10 "$file" | grep -q tracing && rlist=$readers
	for r in $rlist; do
		[ "$r" = - ] && r=""
		ropt=${r:+--reader=$r}
		label="$case: $(basename "$file")${r:+ ($r)}"
		# shellcheck disable=SC2086
		"$SCHEDLINT" analyze --json $ropt $args "$file" > "$TMP/out.json" 2> "$TMP/err"
		rc=$?
		if [ "$want_exit" = 2 ]; then
			why=""
			[ "$rc" = 2 ] || why="exit $rc;"
			[ -s "$TMP/out.json" ] && why="$why stdout not empty;"
			[ "$(wc -l < "$TMP/err")" = 1 ] || why="$why $(wc -l < "$TMP/err") stderr lines;"
			grep -qF "$file" "$TMP/err" || why="$why the message does not name the file;"
			while IFS= read -r re; do
				grep -Eq -- "$re" "$TMP/err" || why="$why no /$re/;"
			done <<-EOF
			$(sed -n 's/^stderr //p' "$exp")
			EOF
			if [ -z "$why" ]; then pass "$label: exit 2: $(cut -c1-150 "$TMP/err")"
			else fail "$label: exit 2 with its message" "$why $(head -c 300 "$TMP/err")"; fi
		else
			# shellcheck disable=SC2086
			"$SCHEDLINT" analyze $ropt $args "$file" > "$TMP/report" 2>> "$TMP/err"
			rc2=$?
			why=$(python3 - "$exp" "$TMP/out.json" "$TMP/report" "$rc" "$rc2" <<'PY'
import json, re, sys
exp, out, report, rc, rc2 = sys.argv[1:]
why = []
if rc != "0" or rc2 != "0":
    why.append("exit %s/%s" % (rc, rc2))
try:
    raw = open(out, "rb").read()
    d = json.loads(raw.decode("utf-8"))	# strict: the report is UTF-8
except Exception as e:
    d = None
    why.append("not JSON: %s" % str(e)[:100])
text = open(report, "rb").read().decode("utf-8", "replace")
for line in open(exp, encoding="utf-8"):
    key, _, arg = line.rstrip("\n").partition(" ")
    if key == "json" and d is not None:
        try:
            ok = eval(arg, {"d": d, "re": re})
        except Exception as e:
            ok = False
            arg += " (%s: %s)" % (type(e).__name__, e)
        if not ok:
            why.append("json " + arg)
    elif key == "report" and not re.search(arg, text, re.M):
        why.append("report /%s/" % arg)
    elif key == "no-report" and re.search(arg, text, re.M):
        why.append("report has /%s/" % arg)
print("; ".join(why))
PY
)
			if [ -n "$(sed -n '/^stderr /p' "$exp")" ]; then
				re=$(sed -n 's/^stderr //p' "$exp")
				grep -Eq -- "$re" "$TMP/err" || why="$why; stderr has no /$re/"
			elif [ -s "$TMP/err" ]; then
				why="$why; stderr: $(head -c 200 "$TMP/err")"
			fi
			if [ -z "$why" ]; then pass "$label: analyzed, as expected"
			else fail "$label: analyzed, as expected" "$why"; fi
		fi
		# dump: the whole stream or one error, never a crash
		# shellcheck disable=SC2086
		"$SCHEDLINT" dump $ropt "$file" > /dev/null 2> "$TMP/err"
		rc=$?
		if [ "$rc" = 0 ] || { [ "$rc" = 2 ] && [ "$(wc -l < "$TMP/err")" = 1 ]; }; then
			pass "$label: dump ends with status $rc"
		else
			fail "$label: dump ends with status 0 or 2" "rc=$rc $(head -c 200 "$TMP/err")"
		fi
	done
}

for exp in "$BAD"/*.expect; do
	case=$(basename "$exp" .expect)
	if [ -f "$BAD/$case.gen" ]; then
		mkdir -p "$TMP/gen/$case"
		if ! sh "$BAD/$case.gen" "$TMP/gen/$case" > "$TMP/gen.log" 2>&1; then
			fail "$case: its recipe runs" "$(tail -3 "$TMP/gen.log")"
			continue
		fi
		nr=0
		for f in "$TMP/gen/$case"/*; do
			[ -f "$f" ] || continue
			check_one "$case" "$f"
			nr=$((nr + 1))
		done
		[ "$nr" -gt 0 ] || fail "$case: its recipe made no input"
	else
		found=0
		for f in "$BAD/$case".*; do
			case $f in *.expect) continue ;; esac
			check_one "$case" "$f"
			found=1
		done
		[ "$found" = 1 ] || fail "$case: no input beside $case.expect"
	fi
done
echo "1..$_n"
