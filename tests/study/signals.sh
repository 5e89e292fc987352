#!/usr/bin/env bash
# The signal matrix (issue 34): every command that can take long, stopped by SIGINT and by SIGTERM at each point
# where it waits or works: within a second, with exit status 128 + the signal's number (130, 143), nothing
# half-written (no staging folder, the output folder as it was), and the caches usable by the next run.  The quick
# commands (list, check, baseline, method, compare, history on small results) finish before a signal can be aimed
# at them; a report's wait for a locked folder is in the matrix (compare and history wait the same way).  Prints
# the slowest stop.  The release build only (no `study bench` under the sanitizers).
# Usage: signals.sh STUDY FIXTURE_DIR
set -u
study=$(realpath "$1")
fixture=$(realpath "$2")
source "$(dirname "$0")/../support.sh"  # tmp, ok, bad, finish
cd "$tmp" || exit 1
slowest=0 slowest_case=""

# point NAME SIG READY CMD...: starts CMD (under GNU timeout, which passes a signal on to it and then to its
# process group: the command gets each signal twice), polls READY (a shell test, 10 s at most) until the command is at the
# point, sends SIG, and expects the stop within a second with 128 + SIG, no staging folder left and $tmp/out as
# it was before (absent, or the copy in $tmp/before).
point() {
  local name=$1 sig=$2 ready=$3
  shift 3
  if [ -n "${again:-}" ]; then  # signalled directly: timeout would merge the two into one pending signal
    "$@" > "$tmp/sig.out" 2>&1 < "${input:-/dev/null}" &
  else
    timeout 60 "$@" > "$tmp/sig.out" 2>&1 < "${input:-/dev/null}" &
  fi
  local pid=$! i
  for i in $(seq 1 200); do eval "$ready" && break; sleep 0.05; done
  local start=$(date +%s%N)
  kill -"$sig" $pid
  # again=S: the signal once more S seconds later, after the command has taken the first (as GNU timeout, a job
  # runner or `kill -- -PGID` does, signalling a process and then its group).
  if [ -n "${again:-}" ]; then sleep "$again"; kill -"$sig" $pid 2> /dev/null; fi
  wait $pid
  local rc=$? ms=$(( ($(date +%s%N) - start) / 1000000 ))
  local want=$((128 + $(kill -l "$sig")))
  local left=$(find "$tmp" -maxdepth 2 -name '.*.tmp.*' | head -1)
  local same=yes
  if [ -e "$tmp/before" ]; then diff -r "$tmp/before" "$tmp/out" > /dev/null 2>&1 || same=no; else [ ! -e "$tmp/out" ] || same=no; fi
  if [ $rc -eq $want ] && [ $ms -lt 1000 ] && [ -z "$left" ] && [ $same = yes ]; then
    ok "$name, SIG$sig: exit $rc in $ms ms, nothing half-written"
  else
    bad "$name, SIG$sig: exit $rc (expected $want) after $ms ms, staging '$left', output unchanged: $same: $(tail -c 300 "$tmp/sig.out")"
  fi
  if [ $ms -gt $slowest ]; then slowest=$ms slowest_case="$name, SIG$sig"; fi
  rm -rf "$tmp"/.out.tmp.*  # one case's leftover is not blamed on the next
}

long_spec() {  # one long run of RK4 on the oscillator (its reference, to t = 200, a few tenths of a second), and one with a long reference
  printf 'name = "long"\nproblem = "harmonic"\nintegrators = ["rk4"]\nmetrics = ["global"]\nt_end = 200\ndt = [1e-6]\n' > "$tmp/long.toml"
  printf 'name = "ref"\nproblem = "kepler"\nparams = { e = 0.9 }\nintegrators = ["rk4"]\nmetrics = ["global"]\nt_end = 2e4\ndt = [0.1]\n' > "$tmp/ref.toml"
}
long_spec
mkdir -p "$tmp/bin"
printf '#!/bin/sh\nif [ "$1" = "--version" ]; then echo fake; exit 0; fi\ntouch "%s/gp.started"\nsleep 30\n' "$tmp" > "$tmp/bin/slowplot"
chmod +x "$tmp/bin/slowplot"
# The previous results, kept in $tmp/before to compare: the output folder of every stopped command must equal them.
"$study" run --problem harmonic --integrators rk4 --t-end 1 --dt 0.1,0.05 --out "$tmp/out" --no-cache -q --no-report > /dev/null 2>&1
cp -a "$tmp/out" "$tmp/before"

for sig in INT TERM; do
  point "study run, in its runs" $sig 'grep -q "references 1/1" "$tmp/sig.out" && sleep 0.3' \
    "$study" run "$tmp/long.toml" --out "$tmp/out" --no-cache --jobs 1 --max-work 1e12
  point "study run, in a reference solve" $sig 'grep -q "references 0/" "$tmp/sig.out"' \
    "$study" run "$tmp/ref.toml" --out "$tmp/out" --no-cache --jobs 1 --max-work 1e13
  rm -f "$tmp/in.fifo" && mkfifo "$tmp/in.fifo" && exec 3<> "$tmp/in.fifo"  # held open: no end of file
  input="$tmp/in.fifo" point "study run -, waiting on standard input" $sig 'sleep 0.3; true' \
    "$study" run - --out "$tmp/out" --no-cache
  exec 3>&-
  point "study reference, in its solve" $sig 'sleep 0.5; true' "$study" reference kepler -p e=0.9 --at 20000 --no-cache --max-work 1e13
  rm -f "$tmp/gp.started"
  point "study report, in gnuplot" $sig '[ -e "$tmp/gp.started" ]' "$study" report "$tmp/out" --gnuplot "$tmp/bin/slowplot" --gnuplot-timeout 50
  rm -f "$tmp/gp.started"
  again=0.001 point "study report, in gnuplot, the signal given again 1 ms later" $sig '[ -e "$tmp/gp.started" ]' \
    "$study" report "$tmp/out" --gnuplot "$tmp/bin/slowplot" --gnuplot-timeout 50
  point "study bench, in its timings" $sig 'grep -q "timings of" "$tmp/sig.out"' "$study" bench --out "$tmp/out" --min-time 1 --repetitions 3
  # Waiting for the lock of a folder a run is writing.
  "$study" run "$tmp/long.toml" --out "$tmp/out" --no-cache --jobs 1 --max-work 1e12 -q > /dev/null 2>&1 &
  holder=$!
  for _ in $(seq 1 100); do [ "$(cat "$tmp/.out.lock" 2>/dev/null)" = "$holder" ] && break; sleep 0.05; done
  point "study report, waiting for the folder's lock" $sig 'grep -q "waiting for another study process" "$tmp/sig.out"' \
    "$study" report "$tmp/out"
  kill -KILL $holder; wait $holder 2> /dev/null  # the lock goes with it
  rm -rf "$tmp"/.out.tmp.*  # what SIGKILL leaves (the next run would remove it)
done

echo "slowest stop: $slowest ms ($slowest_case)"
finish
