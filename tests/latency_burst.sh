# latency_burst.sh - gen: a made-up trace on stdout (tracefs text, one
# CPU) whose latency over time is known: a task woken every 1 ms for 200
# ms, switched in 10 us later, except five wakeups at 121-125 ms that wait
# 300, 400, 500, 900 and 600 us (sourced by tests/e2e/latency_over_time.sh
# and latency_strip.sh, which say what follows from it).
gen() {	# the made-up trace on stdout
	awk 'BEGIN {
		print "# tracer: nop"
		print "#"
		print "# entries-in-buffer/entries-written: 801/801   #P:1"
		print "#"
		print "#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION"
		print "#              | |         |   |||||     |         |"
		lat[120] = 300; lat[121] = 400; lat[122] = 500; lat[123] = 900; lat[124] = 600
		t = 100000000	# us
		printf "         sleeper-100     [000] d..2. %d.%06d: sched_switch: prev_comm=sleeper prev_pid=100 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120\n", t / 1000000, t % 1000000
		for (k = 0; k < 200; k++) {
			w = t + 1000 * (k + 1)
			l = (k in lat) ? lat[k] : 10
			printf "          <idle>-0       [000] d.s4. %d.%06d: sched_waking: comm=sleeper pid=100 prio=120 target_cpu=000\n", w / 1000000, w % 1000000
			printf "          <idle>-0       [000] dNs5. %d.%06d: sched_wakeup: comm=sleeper pid=100 prio=120 target_cpu=000\n", (w + 1) / 1000000, (w + 1) % 1000000
			printf "          <idle>-0       [000] d..2. %d.%06d: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=sleeper next_pid=100 next_prio=120\n", (w + l) / 1000000, (w + l) % 1000000
			e = w + l + 50
			printf "         sleeper-100     [000] d..2. %d.%06d: sched_switch: prev_comm=sleeper prev_pid=100 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120\n", e / 1000000, e % 1000000
		}
	}'
}
