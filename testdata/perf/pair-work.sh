#!/bin/sh
# phase 1: the pipe benchmark alone (idle CPUs around it: sync wakeups)
perf bench sched pipe -l 3000 >/dev/null
# phase 2: two busy loops on each CPU next to the pipe (late preemption)
for c in 0 1 0 1; do taskset -c $c timeout 0.5 sh -c 'while :; do :; done' & done
perf bench sched pipe -l 1500 >/dev/null
wait
# phase 3: hackbench (many wakeups placed on busy CPUs: wakee stacking)
hackbench -T -g 1 -l 800 >/dev/null
