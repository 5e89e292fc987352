#!/usr/bin/env bash
# Studies over MPI ranks (issue 36): `mpirun -n 3 study run` gives the same bytes as one process with threads, on a
# small scan and with items that wait for their references; a rank killed mid-run fails the run naming the rank and
# what it ran, with nothing written, and the same command again resumes from the caches to the same bytes; Ctrl-C
# stops every rank; a bad spec is one message; a spec on standard input is refused.  Skipped (exit 77, with the
# reason) where this build has no MPI or mpirun is missing: ctest shows it as skipped, never as passed.
# usage: mpi.sh STUDY SAME_RESULTS
set -uo pipefail
study=$1 same=$2
if ! "$study" --version | grep -q "with MPI"; then
  echo "SKIPPED: this build of study has no MPI (OpenMPI and Boost.MPI were not found when it was configured)"
  exit 77
fi
if ! command -v mpirun >/dev/null; then
  echo "SKIPPED: mpirun is not installed (Debian: openmpi-bin)"
  exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
# As root (CI machines), OpenMPI wants both; the shared-memory transport without cross-process copies (containers
# forbid ptrace), and more ranks than cores.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
mpi=(mpirun --oversubscribe)
passed=0 failed=0
ok() { echo "ok: $1"; passed=$((passed + 1)); }
bad() { echo "FAIL: $1"; failed=$((failed + 1)); }

# A small scan: three eccentricities, four methods, fixed steps, a long energy run; every kind of item.
cat > scan.toml <<'EOF'
name = "ks"
problem = "kepler"
t_end = 6.283185307179586
integrators = ["rk4", "velocity-verlet", "yoshida4", "euler"]
dt = { max = 0.1, min = 1e-3, per_decade = 3 }
metrics = ["global", "local", "energy", "walltime"]
energy_t_end = 60.0
energy_dt = 0.01
scan = { e = [0.0, 0.5, 0.8] }
EOF
cat > stability.toml <<'EOF'
name = "st"
problem = "harmonic"
t_end = 6.0
integrators = ["rk4", "velocity-verlet", "gauss-legendre4"]
dt = [0.1, 0.05]
metrics = ["global", "stability"]
adaptive = ["dopri5", "odeint-dopri5", { id = "cash-karp5", controller = "pi" }]
tol = { max = 1e-4, min = 1e-8, per_decade = 1 }
EOF
"$study" run scan.toml stability.toml --out threads --cache-dir c-threads --no-report -q -j 2 || bad "the threaded run failed"
out=$("${mpi[@]}" -n 3 "$study" run scan.toml stability.toml --out ranks3 --cache-dir c-ranks --no-report -j 1 2>&1)
rc=$?
[ $rc -eq 0 ] || bad "mpirun -n 3 study run exited $rc: $out"
if diff_out=$(python3 "$same" threads ranks3); then ok "3 ranks, 1 thread each: the same bytes as 1 process with 2 threads"; else bad "3 ranks: $diff_out"; fi
grep -Eq "^rank 2 \(.*, 1 thread\): busy [0-9.]+ s, idle [0-9.]+ s \([0-9]+ %\), [0-9]+ items?$" <<<"$out" &&
  ok "the summary gives every rank's busy and idle time" || bad "no busy and idle time per rank: $out"
# Warm caches, 2 ranks of 2 threads, the scan's automatic sweep (dt = "auto") instead: runs that decide as they go.
sed -e 's/^dt = .*/dt = "auto"/' scan.toml > auto.toml
"$study" run auto.toml --out auto-threads --cache-dir c-threads --no-report -q -j 1 || bad "the threaded automatic run failed"
"${mpi[@]}" -n 2 "$study" run auto.toml --out auto-ranks --cache-dir c-ranks --no-report -q -j 2 >/dev/null 2>&1 || bad "mpirun -n 2 -j 2 failed"
if diff_out=$(python3 "$same" auto-threads auto-ranks); then ok "2 ranks of 2 threads, automatic sweeps: the same bytes"; else bad "automatic sweeps: $diff_out"; fi

# A bad spec: one message (the leader's), exit 2, nothing written.
printf 'name = "b"\nproblem = "kepler"\nt_end = 1.0\nintegrators = ["rk5"]\ndt = [0.1]\n' > bad.toml
out=$("${mpi[@]}" -n 3 "$study" run bad.toml --out bad --no-cache 2>&1)
rc=$?
n=$(grep -c "unknown integrator\|rk5" <<<"$out")
[ $rc -ne 0 ] && [ "$n" -eq 1 ] && [ ! -e bad ] && ok "a bad spec under 3 ranks: one message, a failure, nothing written" ||
  bad "a bad spec under 3 ranks: exit $rc, $n messages: $out"
out=$("${mpi[@]}" -n 3 "$study" run scan.toml --jobs 0 --out bad-jobs 2>&1)
rc=$?
n=$(grep -c -- "--jobs" <<<"$out")
[ $rc -ne 0 ] && [ "$n" -eq 1 ] && ok "a bad option under 3 ranks: one message" || bad "a bad option under 3 ranks: exit $rc, $n messages: $out"
out=$("${mpi[@]}" -n 2 "$study" run - --out stdin --no-cache < scan.toml 2>&1)
grep -q "standard input (-) reaches rank 0 only" <<<"$out" && [ ! -e stdin ] && ok "a spec on standard input is refused under 2 ranks" ||
  bad "a spec on standard input under 2 ranks: $out"

# A long enough study (cold caches: a few seconds) to be stopped in the middle.
cat > long.toml <<'EOF'
name = "long"
problem = "kepler"
params = { e = 0.6 }
t_end = 62.83185307179586
integrators = ["rk4", "velocity-verlet", "yoshida4", "blanes-moan4", "ruth3", "euler", "rk2-midpoint", "yoshida6"]
dt = { max = 0.1, min = 1e-5, per_decade = 3 }
metrics = ["global", "local", "energy", "walltime"]
EOF
rank_pid() {  # the pid of rank $1 of the launch writing into folder $2
  for p in $(pgrep -f "study run long.toml --out $2 "); do
    tr '\0' '\n' < /proc/$p/environ 2>/dev/null | grep -qx "OMPI_COMM_WORLD_RANK=$1" && { echo "$p"; return; }
  done
}
wait_for_work() {  # until the leader has finished some items (its progress), at most 20 s
  for _ in $(seq 1 200); do grep -q "references and runs [1-9]" "$1" 2>/dev/null && return; sleep 0.1; done
}

# Killed: rank 1 gets SIGKILL; the run fails naming rank 1 and what it ran; nothing is written; the same command
# again finishes from the caches, with the same bytes as one process.
"${mpi[@]}" -n 3 "$study" run long.toml --out killed --cache-dir c-kill -j 1 --no-report > kill.log 2>&1 &
launcher=$!
wait_for_work kill.log
victim=$(rank_pid 1 killed)
[ -n "$victim" ] && kill -9 "$victim"
wait $launcher
rc=$?
[ $rc -ne 0 ] && grep -Eq "rank 1 \(.*pid $victim\) stopped without a word \(killed, or crashed\) while it ran or had queued long: " kill.log &&
  ok "a rank killed mid-run: the run fails, naming rank 1, its pid and what it ran" || bad "a killed rank (pid $victim, exit $rc): $(cat kill.log)"
[ ! -e killed ] && ok "nothing written by the run that lost a rank" || bad "the run that lost a rank wrote killed/"
out=$("${mpi[@]}" -n 3 "$study" run long.toml --out killed --cache-dir c-kill -j 1 --no-report 2>&1)
rc=$?
[ $rc -eq 0 ] && grep -Eq "\(([1-9][0-9]*) of [0-9]+ runs from the run cache" <<<"$out" && ok "the same command again resumes from the caches" ||
  bad "the rerun after a killed rank (exit $rc): $out"
"$study" run long.toml --out long-threads --cache-dir c-threads --no-report -q -j 2 || bad "the threaded long run failed"
if diff_out=$(python3 "$same" long-threads killed); then ok "the resumed run: the same bytes as one process"; else bad "the resumed run: $diff_out"; fi

# One rank alone stopped by SIGTERM (not the launcher): the run fails naming that rank as stopped by a signal, not as
# lost, and not as interrupted; nothing is written.
"${mpi[@]}" -n 3 "$study" run long.toml --out one-stopped --cache-dir c-one -j 1 --no-report > one.log 2>&1 &
launcher=$!
wait_for_work one.log
victim=$(rank_pid 2 one-stopped)
[ -n "$victim" ] && kill -TERM "$victim"
wait $launcher
rc=$?
[ $rc -ne 0 ] && grep -Eq "study run: rank 2 \(.*\) was stopped by a signal while it ran or had queued long: " one.log && [ ! -e one-stopped ] &&
  ok "one rank stopped by SIGTERM: named as stopped by a signal, with its items, nothing written" || bad "one rank stopped (exit $rc): $(cat one.log)"

# A rank that hangs (SIGSTOP: alive to the launcher, silent to the leader), with the leader's patience at 3 s: the
# run fails naming it as lost, nothing is written, and the launcher cleans up.
STUDY_RANK_SILENCE=3 "${mpi[@]}" -x STUDY_RANK_SILENCE -n 3 "$study" run long.toml --out hung --cache-dir c-hung -j 1 --no-report > hung.log 2>&1 &
launcher=$!
wait_for_work hung.log
victim=$(rank_pid 1 hung)
[ -n "$victim" ] && kill -STOP "$victim"
wait $launcher
rc=$?
[ $rc -ne 0 ] && grep -Eq "study run: rank 1 \(.*pid $victim\) has said nothing for 3 s while it ran or had queued long: .*it is lost" hung.log && [ ! -e hung ] &&
  ok "a hung rank: named as lost after 3 s of silence, with its items, nothing written" || bad "a hung rank (pid $victim, exit $rc): $(cat hung.log)"
[ -n "$victim" ] && kill -CONT "$victim" 2>/dev/null

# Ctrl-C at mpirun: every rank stops within a second or so, the leader says so, nothing is written.
"${mpi[@]}" -n 3 "$study" run long.toml --out stopped --cache-dir c-stop -j 1 --no-report > stop.log 2>&1 &
launcher=$!
wait_for_work stop.log
t0=$(date +%s.%N)
kill -INT $launcher
wait $launcher
rc=$?
t1=$(date +%s.%N)
left=$(pgrep -fc "study run long.toml --out stopped " || true)
took=$(python3 -c "print(f'{$t1 - $t0:.2f}')")
[ $rc -ne 0 ] && grep -q "study run: interrupted; no results were written" stop.log && [ ! -e stopped ] && [ "$left" -eq 0 ] &&
  python3 -c "import sys; sys.exit(0 if $took < 3 else 1)" && ok "Ctrl-C stops every rank in ${took} s, nothing written" ||
  bad "Ctrl-C (exit $rc, ${took} s, $left ranks left): $(cat stop.log)"

echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
