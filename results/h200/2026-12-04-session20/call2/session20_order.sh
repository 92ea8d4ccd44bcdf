#!/usr/bin/env bash
# Session 20, call 2 (call 1's binaries, e33418c): is r51's -2.1 us against r49 in call 1 the rung or its place in the
# process? scale hopper --rungs runs the named rungs in ladder order, and in call 1 r49 came first (56.0 us, where
# session 19 measured 52.9 us with r49 third). Here each process times one rung alone, r49 and r51 alternating, four
# processes each; then two processes with session 19's neighbours (r43, r46, r49, r51) and two of r49, r51 alone
# without the trace.
source scripts/device/calls/lib.sh
for i in 1 2 3 4; do
  for r in p49 p51; do
    timeout 60 "$J" --json "$W/alone_${r}_$i.json" abc471g scale hopper --n 7e6 --rungs $r --trace-csv "$W/trace_alone_${r}_$i.csv" > "$W/alone_${r}_$i.log" 2>&1
    echo "== alone $r ($i) rc $?"; grep -E "^  (r4|r5|hopper\.co)" "$W/alone_${r}_$i.log" | cut -c1-120
  done
done
stamp
for i in 1 2; do
  timeout 60 "$J" --json "$W/four_$i.json" abc471g scale hopper --n 7e6 --rungs p43,p46,p49,p51 --trace-csv "$W/trace_four_$i.csv" > "$W/four_$i.log" 2>&1
  echo "== four ($i) rc $?"; grep -E "^  (r4|r5|hopper\.co)" "$W/four_$i.log" | cut -c1-120
done
stamp
for i in 1 2; do
  for r in p49 p51; do
    timeout 60 "$J" --json "$W/notrace_${r}_$i.json" abc471g scale hopper --n 7e6 --rungs $r > "$W/notrace_${r}_$i.log" 2>&1
    echo "== notrace $r ($i) rc $?"; grep -E "^  (r4|r5|hopper\.co)" "$W/notrace_${r}_$i.log" | cut -c1-120
  done
done
stamp
