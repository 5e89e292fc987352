#!/usr/bin/env bash
# Hostile and careless input, each case named after what it proves (issue 18).  Usage: hardening.sh STUDY FIXTURE_DIR
# FIXTURE_DIR holds a results.json (tests/reports/fixture).  Prints one line per case and "N passed, M failed".
set -u
study=$(realpath "$1")
fixture=$(realpath "$2")
source "$(dirname "$0")/../support.sh"  # tmp, ok, bad, expect, finish
# A copy of the fixture's results.json whose first study has another name (no '|', '&' or '\\' in it).
hostile_copy() {
  mkdir -p "$1"
  sed "0,/\"name\": \"fixture\"/s||\"name\": \"$2\"|" "$fixture/results.json" > "$1/results.json"
}

cd "$tmp" || exit 1

# 1. No shell: a study name with shell syntax is refused by the loader; nothing runs, nothing is written.
hostile_copy "$tmp/inj" "x'; touch owned; '"
expect "a study name with shell syntax is refused, naming the field" 2 "studies\[0\]\.name: 'x'; touch owned; '' must be lowercase" \
  "$study" report "$tmp/inj"
[ ! -e "$tmp/owned" ] && [ ! -e "$tmp/inj/owned" ] && [ ! -e "$tmp/inj/REPORT.md" ] && ok "nothing ran and nothing was written for it" ||
  bad "a hostile name ran a command or wrote a report"

# 2. Path traversal: a name with ../ is refused before any file is opened.
hostile_copy "$tmp/trav" "../../somewhere"
expect "a study name with ../ is refused" 2 "studies\[0\]\.name: '\.\./\.\./somewhere' must be lowercase" "$study" report "$tmp/trav"
[ ! -e "$tmp/somewhere" ] && ok "nothing was written outside the output folder" || bad "a file appeared outside the output folder"

# 3. A title with a line break and a backquote reaches gnuplot as text: no command runs.
mkdir -p "$tmp/title"
cp -r "$fixture"/. "$tmp/title/"
sed -i 's/"title": "Fixture: pendulum"/"title": "Fixture\\n system(\\"touch owned2\\") `touch owned3` '"'"'"/' "$tmp/title/results.json"
"$study" report "$tmp/title" > "$tmp/title.out" 2>&1
rc=$?
if [ $rc -eq 0 ] && [ ! -e "$tmp/title/plots/owned2" ] && [ ! -e "$tmp/title/plots/owned3" ] && [ ! -e "$tmp/owned2" ] &&
   [ -s "$tmp/title/plots/fixture-global.svg" ] && ! grep -q '^ system' "$tmp/title/REPORT.md" && grep -q 'Fixture  system' "$tmp/title/REPORT.md"; then
  ok "a title with a line break and backquotes is drawn as text, and runs nothing"
else
  bad "hostile title: exit $rc, $(head -c 400 "$tmp/title.out"); $(ls "$tmp/title/plots" | head -3)"
fi

# 4. gnuplot is a program started with an argument vector and a time limit.
mkdir -p "$tmp/bin"
printf '#!/bin/sh\nif [ "$1" = "--version" ]; then echo fake; exit 0; fi\nsleep 30\n' > "$tmp/bin/slowplot"
printf '#!/bin/sh\nif [ "$1" = "--version" ]; then exit 0; fi\necho "line 3: undefined variable: oops" >&2\nexit 1\n' > "$tmp/bin/failplot"
chmod +x "$tmp/bin/slowplot" "$tmp/bin/failplot"
cp -r "$fixture" "$tmp/slow"
start=$(date +%s)
expect "a hanging gnuplot is stopped at --gnuplot-timeout: the report fails, not published, naming why" 1 "not published .*gnuplot failed on .*timed out after 0.3" \
  "$study" report "$tmp/slow" --gnuplot "$tmp/bin/slowplot" --gnuplot-timeout 0.3
[ $(( $(date +%s) - start )) -lt 25 ] && ok "the time limit bounds the whole report" || bad "the report waited for a hanging gnuplot"
# A gnuplot whose helper outlives it (sh, then sleep): the whole process group is stopped at the limit.
printf '#!/bin/sh\nif [ "$1" = "--version" ]; then exit 0; fi\nsleep 30 &\necho $! > "%s/helper.pid"\nwait\n' "$tmp" > "$tmp/bin/forkplot"
printf '#!/bin/sh\nsleep 30\n' > "$tmp/bin/mute"
chmod +x "$tmp/bin/forkplot" "$tmp/bin/mute"
cp -r "$fixture" "$tmp/fork"
"$study" report "$tmp/fork" --gnuplot "$tmp/bin/forkplot" --gnuplot-timeout 0.3 > /dev/null 2>&1
sleep 0.2
state=$(ps -o stat= -p "$(cat "$tmp/helper.pid" 2>/dev/null)" 2>/dev/null)  # gone, or a zombie nobody reaped yet (a container's init)
[ -s "$tmp/helper.pid" ] && { [ -z "$state" ] || [ "${state:0:1}" = Z ]; } && ok "a hanging gnuplot's own children are stopped with it" ||
  bad "a child of a timed-out gnuplot is still running (pid $(cat "$tmp/helper.pid" 2>/dev/null))"
cp -r "$fixture" "$tmp/mute"
start=$(date +%s)
out=$("$study" report "$tmp/mute" --gnuplot "$tmp/bin/mute" --gnuplot-timeout 0.5 2>&1)
if [ $(( $(date +%s) - start )) -lt 5 ] && grep -q "did not answer --version: raise --gnuplot-timeout" <<<"$out" && ! grep -q apt-get <<<"$out"; then
  ok "a gnuplot that hangs on --version is given up at --gnuplot-timeout, with no advice to install it"
else
  bad "hanging gnuplot probe: $(head -c 400 <<<"$out")"
fi
cp -r "$fixture" "$tmp/failing"
expect "gnuplot's own error message reaches the user, and the report fails" 1 "gnuplot failed on .*exit status 1: line 3: undefined variable: oops" \
  "$study" report "$tmp/failing" --gnuplot "$tmp/bin/failplot"
cp -r "$fixture" "$tmp/absent"
expect "a gnuplot that is not installed is named, with the package to install" 0 "cannot run gnuplot \('no-such-gnuplot'.*not found.*apt-get install gnuplot-nox" \
  "$study" report "$tmp/absent" --gnuplot no-such-gnuplot
[ ! -e "$tmp/slow/REPORT.md" ] && [ ! -e "$tmp/failing/REPORT.md" ] && [ -z "$(find "$tmp/slow" "$tmp/failing" -name '.*tmp*')" ] && ok "no report and no temporary pictures are left behind" ||
  bad "temporary files left: $(find "$tmp/slow" "$tmp/failing" -name '.*tmp*' | head -3)"

# 5. SIGINT during study report: it stops within a second, exit 130, and a second signal is not needed.
cp -r "$fixture" "$tmp/sig"
"$study" report "$tmp/sig" --gnuplot "$tmp/bin/slowplot" > "$tmp/sig.out" 2>&1 &
pid=$!
sleep 0.5
start=$(date +%s%N)
kill -INT $pid
wait $pid
rc=$?
ms=$(( ($(date +%s%N) - start) / 1000000 ))
[ $rc -eq 130 ] && [ $ms -lt 1500 ] && grep -q "interrupted; the report was not written" "$tmp/sig.out" &&
  ok "Ctrl-C stops study report within a second (${ms} ms), exit 130" || bad "SIGINT during report: exit $rc after ${ms} ms: $(cat "$tmp/sig.out")"

# 6. The gate cannot pass on nothing.
expect "study check with a study the results do not have fails, naming it" 1 "FAIL no-such-study .*missing" \
  "$study" check "$fixture" --study no-such-study
expect "study check with an integrator the results do not have fails, naming it" 1 "FAIL .*\| rk9 \| presence .*missing" \
  "$study" check "$fixture" --integrator rk9
expect "study check --order-tolerance nan is a usage error" 2 "order-tolerance.*finite" "$study" check "$fixture" --order-tolerance nan
expect "study check --order-tolerance inf is a usage error" 2 "order-tolerance" "$study" check "$fixture" --order-tolerance inf

# 7. Bounded work and validation before compute: each refused at once (exit 2), nothing written.
spec() { printf 'name = "w"\nproblem = "harmonic"\nintegrators = ["rk4"]\nmetrics = ["global"]\n%s' "$1" > "$tmp/w.toml"; }
spec $'t_end = 1.0\ndt = [4.9e-324]\n'
expect "a subnormal dt is refused with the valid range" 2 "w.toml:6: dt: dt = 5e-324 would take inf steps.*dt from 1e-12 to 1" \
  "$study" run "$tmp/w.toml" --out "$tmp/o1" --no-cache
spec $'t_end = 10.0\ndt = [1e-7]\n'
start=$(date +%s)
expect "a request above --max-work is refused before it runs, naming its biggest part and the option" 2 \
  "about 1.6e\+09 weighted force evaluations, above the limit of 1e\+06; most of it: rk4's 1 runs.*--max-work" \
  "$study" run "$tmp/w.toml" --out "$tmp/o2" --no-cache --max-work 1e6
# Its wide runs' bound the biggest part (7e4 steps of rk4, 4 passes: 1.12e6; 4 x that in wider arithmetic): the
# message says it is a bound and what lowers it.
spec $'t_end = 1.0\ndt = [1e-4, 5e-5, 2.5e-5]\n'
expect "a refusal whose biggest part is the wide runs' bound names wide_budget" 2 \
  "about 6.1e\+06 weighted force evaluations, above the limit of 1e\+06; most of it: rk4's runs in wider arithmetic.*a bound, spent only where.*smaller wide_budget \(0: none\)" \
  "$study" run "$tmp/w.toml" --out "$tmp/o2" --no-cache --max-work 1e6
# Adaptive pairs: their work is estimated from a pilot run at tol.max, not counted at tol.max_steps.  Seven pairs at 13
# tolerances on Kepler's orbit run in about a second; at tol.max_steps each they would count 7e11 evaluations, above the
# default limit.  A refusal whose biggest part is a pair's names the knobs that lower it.
printf 'name = "a"\nproblem = "kepler"\nparams = { e = 0.5 }\nt_end = 10.0\nrepeats = 1\nadaptive = ["dopri5", "cash-karp5", "fehlberg78", "verner65", "bogacki-shampine3", "odeint-dopri5", { id = "dopri5", controller = "pi" }]\ntol = { max = 1e-3, min = 1e-9, per_decade = 2 }\n' > "$tmp/a.toml"
expect "a study of pairs that runs in a second is not refused for its tol.max_steps bound" 0 "" \
  "$study" run "$tmp/a.toml" --out "$tmp/oa" --no-cache --no-report
printf 'name = "b"\nproblem = "kepler"\nparams = { e = 0.5 }\nt_end = 10.0\nrepeats = 1\nadaptive = ["bogacki-shampine3"]\ntol = { max = 1e-3, min = 1e-13, per_decade = 2 }\n' > "$tmp/b.toml"
expect "a refusal whose biggest part is a pair's runs names tol.min, the tolerances and tol.max_steps" 2 \
  "most of it: bogacki-shampine3 \(adaptive\)'s 21 tolerances \(about .* tries at tol.min = 1e-13: its pilot run at tol.max took [0-9]+, scaled by \(tol.max / tol\)\^\(1/3\) x 4.*give it a larger tol.min, fewer tolerances \(tol.per_decade\), or a smaller tol.max_steps" \
  "$study" run "$tmp/b.toml" --out "$tmp/ob" --no-cache --no-report --max-work 1e6
printf 'name = "e"\nproblem = "kepler"\nintegrators = ["leapfrog"]\nt_end = 1.0\ndt = [0.1]\nenergy_t_end = 1e12\nenergy_dt = 1.0\n' > "$tmp/e.toml"
expect "energy_t_end = 1e12 is refused by the default limit" 2 "1e\+12 weighted force evaluations.*long energy run" \
  "$study" run "$tmp/e.toml" --out "$tmp/o3" --no-cache
[ $(( $(date +%s) - start )) -lt 10 ] && [ ! -e "$tmp/o1" ] && [ ! -e "$tmp/o2" ] && [ ! -e "$tmp/o3" ] &&
  ok "refused requests return at once and write nothing" || bad "a refused request took time or wrote output"
expect "study reference --at 1e308 is refused with the valid range" 2 "--at 1e308: times must lie in \[0, " \
  "$study" reference kepler --at 1e308 --no-cache
expect "study reference --param e= is refused" 2 "--param 'e=' is not of the form name=value" "$study" reference kepler --param e= --at 1 --no-cache
expect "a repeated --param is refused" 2 "--param e is given twice" \
  "$study" run --problem kepler --param e=0.5 --param e=0.6 --integrators rk4 --t-end 1 --dt 0.1 --out "$tmp/o4" --no-cache
expect "--out \"\" is refused" 2 "--out \"\": an empty value" "$study" run "$tmp/w.toml" --out "" --no-cache
expect "--cache-dir \"\" is refused" 2 "--cache-dir \"\": an empty value" "$study" run "$tmp/w.toml" --out "$tmp/o5" --cache-dir ""
expect "--problem \"\" is refused, not the default study" 2 "--problem \"\": an empty value" "$study" run --problem "" --out "$tmp/o5" --no-cache
expect "an empty item in a list is refused" 2 "--dt '0.1,,0.05': an empty item" \
  "$study" run --problem harmonic --integrators rk4 --t-end 1 --dt 0.1,,0.05 --out "$tmp/o5" --no-cache
expect "--max-evaluations nan is refused (the cost limit cannot be switched off)" 2 "max-work.*finite" \
  "$study" run "$tmp/w.toml" --out "$tmp/o5" --no-cache --max-evaluations nan
expect "--gnuplot-timeout nan is refused" 2 "gnuplot-timeout.*finite" "$study" report "$tmp/o5" --gnuplot-timeout nan
printf 'name = "plots"\nproblem = "harmonic"\nintegrators = ["rk4"]\nt_end = 1.0\ndt = [0.1]\n' > "$tmp/plots.toml"
expect "a study named plots (the report's folder) is refused" 2 "is the name of the report's folder of plots" \
  "$study" run "$tmp/plots.toml" --out "$tmp/o5" --no-cache
expect "a subnormal t_end is refused" 2 "t_end = 5e-324 is below 1e-12 of" \
  "$study" run --problem harmonic --integrators rk4 --t-end 5e-324 --dt auto --out "$tmp/o5" --no-cache
ln -s "$tmp/nowhere" "$tmp/dangling"
expect "--out a dangling link is refused before any work" 2 "dangling: is a symbolic link to nothing" \
  "$study" run "$tmp/w.toml" --out "$tmp/dangling" --no-cache
mkdir -p "$tmp/here"
expect "--out . (the current folder, replaced whole) is refused" 2 "is the current folder or holds it" \
  bash -c 'cd "$1" && "$2" run "$3" --out . --no-cache' -- "$tmp/here" "$study" "$tmp/w.toml"
mkfifo "$tmp/junit.fifo"
expect "--junit naming a FIFO is refused: a device or FIFO is never replaced" 2 "junit.fifo: is not a regular file" \
  "$study" check "$fixture" --junit "$tmp/junit.fifo"
[ -p "$tmp/junit.fifo" ] && ok "the FIFO is still a FIFO" || bad "--junit replaced a FIFO"
touch "$tmp/afile"
expect "an output path that is a file is refused before any work" 2 "--out .*afile: is a file, not a folder" \
  "$study" run "$tmp/w.toml" --out "$tmp/afile" --no-cache
# Started by an MPI launcher as one of several processes, in a build without MPI: refused before any work, nothing
# written (each would run the whole study into one folder); one process (size 1) runs as usual.
spec 't_end = 1.0
dt = [0.1]
'
if "$study" --version | grep -q "without MPI"; then
  expect "one of 3 processes of mpirun, without MPI, is refused before any work" 2 "started as one of 3 processes .* built without MPI" \
    env OMPI_COMM_WORLD_SIZE=3 "$study" run "$tmp/w.toml" --out "$tmp/o-mpi" --no-cache
  [ ! -e "$tmp/o-mpi" ] && ok "nothing written by the refused process" || bad "the refused process wrote $tmp/o-mpi"
  expect "one of 2 tasks of srun, likewise" 2 "started as one of 2 processes" \
    env SLURM_STEP_ID=0 SLURM_STEP_NUM_TASKS=2 "$study" run "$tmp/w.toml" --out "$tmp/o-mpi" --no-cache
else  # with MPI, a launcher's variables without its launcher: each process alone in a world of one, refused
  expect "the variables of 3 processes of mpirun without mpirun: refused before MPI starts" 2 "started as one of 3 processes, but no launcher is there" \
    env OMPI_COMM_WORLD_SIZE=3 "$study" run "$tmp/w.toml" --out "$tmp/o-mpi" --no-cache
  [ ! -e "$tmp/o-mpi" ] && ok "nothing written by the refused process" || bad "the refused process wrote $tmp/o-mpi"
  expect "srun's 2 tasks without its MPI plugin, likewise" 2 "started as one of 2 processes, but no launcher .*srun --mpi=pmix" \
    env SLURM_STEP_ID=0 SLURM_STEP_NUM_TASKS=2 "$study" run "$tmp/w.toml" --out "$tmp/o-mpi" --no-cache
fi
expect "a launcher of one process runs as usual" 0 "" env OMPI_COMM_WORLD_SIZE=1 "$study" run "$tmp/w.toml" --out "$tmp/o-mpi1" --no-cache --quiet --no-report
# A launcher's rank variables set by hand, no launcher: every command judges its arguments as usual (issue 53).
expect "rank variables without a launcher: a bad option of check is still a usage error" 2 "order-tolerance" \
  env OMPI_COMM_WORLD_SIZE=2 OMPI_COMM_WORLD_RANK=1 "$study" check --order-tolerance nan "$tmp/o-mpi1"
expect "rank variables without a launcher: a misspelled command is still a usage error" 2 "runn" \
  env OMPI_COMM_WORLD_SIZE=2 OMPI_COMM_WORLD_RANK=1 "$study" runn
expect "rank variables without a launcher: a usage error of run is still one" 2 "no-such-option" \
  env OMPI_COMM_WORLD_SIZE=2 OMPI_COMM_WORLD_RANK=1 "$study" run --no-such-option
out=$(env PMIX_SERVER_URI2=x OMPI_COMM_WORLD_SIZE=2 OMPI_COMM_WORLD_RANK=1 "$study" run --no-such-option 2>&1); rc=$?
[ $rc -eq 0 ] && [ -z "$out" ] && ok "under a launcher that is there, rank 1 of run keeps its usage error to itself (rank 0 says it)" ||
  bad "quiet rank under a launcher: exit $rc: $out"
out=$(env PMIX_SERVER_URI2=x OMPI_COMM_WORLD_SIZE=2 OMPI_COMM_WORLD_RANK=1 "$study" check --order-tolerance nan "$tmp/o-mpi1" 2>&1); rc=$?
[ $rc -eq 2 ] && grep -q "order-tolerance" <<<"$out" && ok "under a launcher, a command other than run is not quiet" || bad "check under a launcher: exit $rc: $out"
expect "--task-log into a folder that does not exist is refused before any work, not made" 2 "--task-log .*: its folder .*nowhere/deeper does not exist" \
  "$study" run "$tmp/w.toml" --out "$tmp/o-tl" --no-cache --task-log "$tmp/nowhere/deeper/t.csv"
mkdir -p "$tmp/no-specs"
expect "a folder given as a spec runs its specs, and one with none is refused" 2 "no-specs: a folder with no spec file" \
  "$study" run "$tmp/no-specs" --out "$tmp/o6" --no-cache
expect "amplitude near pi gets the pendulum's own message, not Boost's" 2 "sin\(theta0/2\) rounds to 1" \
  "$study" run --problem pendulum --param amplitude=3.14159265358979 --integrators rk4 --t-end 1 --dt 0.1 --out "$tmp/o7" --no-cache

# 8. Special files in the cache are never opened for reading: a FIFO under a cache file's name is passed over.
spec $'t_end = 1.0\ndt = [0.1, 0.05, 0.025]\n'
"$study" run "$tmp/w.toml" --out "$tmp/f1" --cache-dir "$tmp/fc" --no-report -q > /dev/null 2>&1
n=0
for f in $(find "$tmp/fc" -name '*.json'); do rm "$f"; mkfifo "$f"; n=$((n + 1)); done
timeout 60 "$study" run "$tmp/w.toml" --out "$tmp/f2" --cache-dir "$tmp/fc" --no-report -q > "$tmp/fifo.out" 2>&1
rc=$?
[ $n -gt 0 ] && [ $rc -eq 0 ] && cmp -s "$tmp/f1/w/orders.csv" "$tmp/f2/w/orders.csv" &&
  ok "FIFOs in the cache ($n) are passed over: the run completes with the same results" || bad "FIFO cache: exit $rc after $n FIFOs: $(head -c 300 "$tmp/fifo.out")"

# Input files that are FIFOs are refused, never read (a read would block for ever).
mkfifo "$tmp/spec.fifo"
expect "a FIFO given as a spec is refused, not read" 2 "spec.fifo: is not a regular file" timeout 20 "$study" run "$tmp/spec.fifo" --out "$tmp/o8"
mkdir -p "$tmp/fifo-results" && cp -r "$fixture/results.json" "$fixture/fixture" "$tmp/fifo-results/" && mkfifo "$tmp/fifo-results/bench.json"
expect "a FIFO as bench.json in a results folder is refused, not read" 2 "bench.json: is not a regular file" \
  timeout 20 "$study" report "$tmp/fifo-results" --no-plots

# 9. SIGTERM inside one long task (a run of 2e8 steps; a reference over 1e5 periods): it stops within a second.
stop_within_a_second() {
  local name=$1
  shift
  timeout 60 "$@" > "$tmp/long.out" 2>&1 &  # a signal not honoured fails the case, not the whole test's time limit
  local pid=$!
  sleep 1.5
  local start=$(date +%s%N)
  kill -TERM $pid
  wait $pid
  local rc=$? ms=$(( ($(date +%s%N) - start) / 1000000 ))
  [ $rc -eq 143 ] && [ $ms -lt 1000 ] && ok "$name (${ms} ms, exit 143)" || bad "$name: exit $rc after ${ms} ms: $(tail -c 300 "$tmp/long.out")"
}
spec $'t_end = 2e5\ndt = [1e-3]\n'
stop_within_a_second "SIGTERM stops one long run within a second" "$study" run "$tmp/w.toml" --out "$tmp/l1" --no-cache --jobs 1 --max-evaluations 1e12
stop_within_a_second "SIGTERM stops a long reference solve within a second" "$study" reference kepler --at 100000 --no-cache
[ ! -e "$tmp/l1" ] && ok "an interrupted run leaves no output folder" || bad "an interrupted run left $tmp/l1"
# A 64-stage implicit table: a step takes milliseconds (its Newton iteration solves 256 equations), so a fixed count
# of steps between two looks at the flag was seconds; the loops look about every 10 ms whatever a step costs.
python3 -c 'import sys; s = 64; row = "[" + ", ".join([chr(34) + "1/128" + chr(34)] * s) + "]"
print("[methods.big64]\nkind = \"runge-kutta\"\norder = 2\nb = [" + ", ".join([chr(34) + "1/64" + chr(34)] * s) + "]")
print("a = [" + ", ".join([row] * s) + "]")' > "$tmp/big64.toml"
# On the oscillator (an exact solution: no reference solve, which looks at the flag itself, to stop first).
stop_within_a_second "SIGTERM stops a 64-stage implicit table's run within a second" "$study" run --problem harmonic --methods "$tmp/big64.toml" \
  --integrators big64 --t-end 1000 --dt 0.01 --out "$tmp/l2" --no-cache --jobs 1 --max-evaluations 1e12

# 10. Atomic output: a run killed with SIGKILL leaves the folder as it was; two reports of one folder at once both
# succeed with every plot.
spec $'t_end = 1.0\ndt = [0.1, 0.05]\n'
"$study" run "$tmp/w.toml" --out "$tmp/atomic" --no-cache -q > /dev/null 2>&1
cp "$tmp/atomic/results.json" "$tmp/before.json"
spec $'t_end = 2e5\ndt = [1e-3]\n'
"$study" run "$tmp/w.toml" --out "$tmp/atomic" --no-cache --jobs 1 --max-evaluations 1e12 > /dev/null 2>&1 &
pid=$!
sleep 1.5
kill -KILL $pid
wait $pid 2> /dev/null
cmp -s "$tmp/before.json" "$tmp/atomic/results.json" && [ -s "$tmp/atomic/REPORT.md" ] && [ -s "$tmp/atomic/w/runs.csv" ] &&
  ok "after SIGKILL the output folder is the old one, whole" || bad "SIGKILL left the output folder changed or incomplete"
spec $'t_end = 1.0\ndt = [0.1, 0.05]\n'
"$study" run "$tmp/w.toml" --out "$tmp/atomic" --no-cache -q > /dev/null 2>&1
[ -z "$(find "$tmp" -maxdepth 1 -name '.atomic.tmp.*')" ] && ok "the next run removes the staging folder the killed one left" ||
  bad "a staging folder was left: $(find "$tmp" -maxdepth 1 -name '.atomic.tmp.*')"
echo mine > "$tmp/atomic/notes.txt"
cp "$tmp/atomic/results.json" "$tmp/before.json"
"$study" report "$tmp/atomic" > "$tmp/r1.out" 2>&1 & a=$!
"$study" report "$tmp/atomic" > "$tmp/r2.out" 2>&1 & b=$!
wait $a; ra=$?
wait $b; rb=$?
[ $ra -eq 0 ] && [ $rb -eq 0 ] && ! grep -q "missing" "$tmp/r1.out" "$tmp/r2.out" && [ -s "$tmp/atomic/REPORT.md" ] &&
  [ "$(cat "$tmp/atomic/notes.txt")" = mine ] && cmp -s "$tmp/before.json" "$tmp/atomic/results.json" &&
  ok "two reports of one folder at once both succeed, with every plot, the user's file kept" ||
  bad "concurrent reports: exit $ra/$rb: $(cat "$tmp/r1.out" "$tmp/r2.out" | head -c 400)"

# Links in a results folder are carried by a report as links, never followed (a link to a secret is not copied
# in); the next run replaces its own files and keeps the user's links as links, naming them, never following them.
timeout 30 "$study" run "$tmp/w.toml" --out "$tmp/linked" --no-cache -q > /dev/null 2>&1
mkdir -p "$tmp/linked" && echo secret > "$tmp/secret.txt"
ln -s "$tmp/secret.txt" "$tmp/linked/secret" && ln -s .. "$tmp/linked/loop"
timeout 30 "$study" report "$tmp/linked" > "$tmp/linked.out" 2>&1
rc=$?
[ $rc -eq 0 ] && [ -L "$tmp/linked/secret" ] && [ -L "$tmp/linked/loop" ] && [ -s "$tmp/linked/results.json" ] &&
  ok "links in a results folder are carried by a report as links, never followed" || bad "links: exit $rc: $(head -c 300 "$tmp/linked.out"); $(ls -la "$tmp/linked" | head -5)"
timeout 30 "$study" run "$tmp/w.toml" --out "$tmp/linked" --no-cache -q > "$tmp/linked.out" 2>&1
rc=$?
[ $rc -eq 0 ] && [ -L "$tmp/linked/secret" ] && [ -L "$tmp/linked/loop" ] && [ "$(cat "$tmp/secret.txt")" = secret ] &&
  grep -q "kept loop, secret in" "$tmp/linked.out" &&
  ok "a run keeps the user's links as links, names them, and leaves what they point to untouched" || bad "run over links: exit $rc: $(head -c 300 "$tmp/linked.out")"

# The results folder: a marker says a run wrote it; --out onto a folder of the user's files is refused before any
# work; a study of an earlier run does not survive into the new results, bench.json does; one run at a time.
[ -f "$tmp/linked/.study-results" ] && ok "a results folder holds the marker .study-results" || bad "no marker in $(ls -a "$tmp/linked")"
mkdir -p "$tmp/users" && echo mine > "$tmp/users/notes.txt"
expect "--out onto a folder of the user's own files is refused, naming one of them" 2 \
  "--out .*users: holds 'notes.txt', and is not a results folder \(no .study-results in it" \
  "$study" run "$tmp/w.toml" --out "$tmp/users" --no-cache
echo '{"x": 1}' > "$tmp/users/results.json"
expect "a results.json beside the user's files does not make their folder a results folder" 2 "holds 'notes.txt'" \
  "$study" run "$tmp/w.toml" --out "$tmp/users" --no-cache
rm "$tmp/users/results.json"
mkdir -p "$tmp/benched" && echo '{}' > "$tmp/benched/bench.json"
"$study" run --problem harmonic --integrators rk4 --t-end 1 --dt 0.1,0.05 --out "$tmp/benched" --no-cache -q --no-report > /dev/null 2>&1 &&
  [ -f "$tmp/benched/bench.json" ] && [ -f "$tmp/benched/results.json" ] &&
  ok "a folder holding only study bench's bench.json is a results folder: the run writes it, bench.json kept" ||
  bad "bench then run: $(ls -A "$tmp/benched")"
[ "$(cat "$tmp/users/notes.txt")" = mine ] && [ "$(ls -A "$tmp/users" | wc -l)" -eq 1 ] &&
  ok "the user's folder is untouched" || bad "the user's folder changed: $(ls -A "$tmp/users")"
"$study" run --problem harmonic --integrators rk4 --t-end 1 --dt 0.1,0.05 --name older --out "$tmp/whole" --no-cache -q > /dev/null 2>&1
echo '{}' > "$tmp/whole/bench.json"
"$study" run --problem harmonic --integrators rk4 --t-end 1 --dt 0.1,0.05 --name newer --out "$tmp/whole" --no-cache -q > /dev/null 2>&1
[ -d "$tmp/whole/newer" ] && [ ! -e "$tmp/whole/older" ] && [ -f "$tmp/whole/bench.json" ] && ! grep -q older "$tmp/whole/results.json" &&
  ok "a run replaces its results folder whole: the earlier run's study is gone, bench.json kept" ||
  bad "replace whole: $(ls -A "$tmp/whole")"
spec $'t_end = 2e5\ndt = [1e-3]\n'
"$study" run "$tmp/w.toml" --out "$tmp/locked" --no-cache --jobs 1 --max-work 1e12 -q > /dev/null 2>&1 &
pid=$!
for _ in $(seq 1 100); do [ "$(cat "$tmp/.locked.lock" 2>/dev/null)" = "$pid" ] && break; sleep 0.1; done  # it holds the lock
expect "a second run into a folder another run is writing is refused at once, naming the other" 1 \
  "another study process \(pid $pid\) is writing .*locked now" \
  "$study" run --problem harmonic --integrators rk4 --t-end 1 --dt 0.1 --out "$tmp/locked" --no-cache
kill -KILL $pid; wait $pid 2> /dev/null
spec $'t_end = 1.0\ndt = [0.1, 0.05]\n'
"$study" run --problem harmonic --integrators rk4 --t-end 1 --dt 0.1,0.05 --out "$tmp/locked" --no-cache -q > /dev/null 2>&1 &&
  ok "the lock goes with the process that held it (killed): the next run writes the folder" || bad "the lock outlived its process"
expect "a report --out inside another results folder is refused" 2 "--out .*/whole/newer/page: lies in the results folder" \
  "$study" report "$tmp/atomic" --out "$tmp/whole/newer/page"
expect "a compare --out inside a results folder is refused (the next run would replace it)" 2 \
  "--out .*/whole/cmp: lies in the results folder .*/whole" "$study" compare "$tmp/atomic" "$tmp/linked" --out "$tmp/whole/cmp"

# Work and memory bounded by what they cost: N-body work weighted by its pair forces, the memory of the samples
# kept, a reference's own work limit (also inside the solve, whose estimate can be low), one-line texts capped.
printf 'name = "pl"\nproblem = "plummer"\nparams = { n = 16 }\nt_end = 5000\ndt = [0.1]\nintegrators = ["rk4"]\n' > "$tmp/pl.toml"
expect "16 softened bodies are weighted by their 120 pair forces: refused by the default limit" 2 \
  "about 2.9e\+11 weighted force evaluations, above the limit of 1e\+11; most of it: its reference" "$study" run "$tmp/pl.toml" --out "$tmp/o6" --no-cache
printf 'name = "m"\nproblem = "plummer"\nparams = { n = 16 }\nt_end = 1\nsamples = 4096\nintegrators = ["leapfrog"]\nmetrics = ["global"]\ndt = { max = 0.01, min = 0.0001, per_decade = 100 }\n' > "$tmp/m.toml"
expect "a 150-byte spec asking for gigabytes of samples is refused by --max-memory's default" 2 \
  "would hold about 10.7 GB in memory \(201 runs' samples.*samples.csv: 845 MB, counted 8 times.*above the limit of 2 GB.*--max-memory" \
  "$study" run "$tmp/m.toml" --out "$tmp/o6" --no-cache
expect "--max-memory takes units and refuses what is not a size" 2 "'3x' is not a size" \
  "$study" run "$tmp/m.toml" --out "$tmp/o6" --no-cache --max-memory 3x
expect "--max-memory 20GB lets it pass the memory check (checked before the work)" 2 "weighted force evaluations, above the limit of 1e\+06" \
  "$study" run "$tmp/m.toml" --out "$tmp/o6" --no-cache --max-memory 20GB --max-work 1e6
expect "without its report a run holds samples.csv twice, not 8 times: 3.94 GB + 2 x 845 MB" 2 "would hold about 5.63 GB in memory" \
  "$study" run "$tmp/m.toml" --out "$tmp/o6" --no-cache --no-report
expect "memory is refused whatever the work allowed" 2 "would hold about 10.7 GB in memory.*above the limit of 1 GB" \
  "$study" run "$tmp/m.toml" --out "$tmp/o6" --no-cache --max-memory 1GB --max-work 1e18
expect "study reference is bounded too: a reference over 1e6 time units of Kepler" 2 \
  "a reference to t = 1e\+06 .*would take about 4.8e\+11 weighted force evaluations, above the limit of 1e\+11" \
  "$study" reference kepler --at 1e6 --no-cache
expect "the limit holds inside the reference solve when its estimate was low (close encounters)" 1 \
  "failed in the .* solve \(tolerance 1e-(28|30)\).*reached the work limit \(--max-work\) that the request's reference solves share" \
  "$study" reference plummer -p n=5 --at 10 --no-cache --max-work 5e7
[ ! -e "$tmp/o6" ] && ok "refused requests write nothing" || bad "a refused request wrote $tmp/o6"
printf 'name = "t"\ntitle = "%s"\nproblem = "harmonic"\nintegrators = ["rk4"]\nt_end = 1.0\ndt = [0.1]\n' "$(head -c 1000 /dev/zero | tr '\0' x)" > "$tmp/t.toml"
expect "a title longer than a line is refused, shown shortened" 2 "title: 'xxxx.*(1000 bytes).*is 1000 bytes long; at most 300" \
  "$study" run "$tmp/t.toml" --out "$tmp/o6" --no-cache
printf '[methods.x]\nkind = "composition"\norder = 2\nbase = "leapfrog"\nweights = ["1"]\nsummary = "%s"\n' "$(head -c 5000 /dev/zero | tr '\0' y)" > "$tmp/long-summary.toml"
expect "a table's summary longer than a line is refused" 2 "methods.x.summary: .*is 5000 bytes long; at most 300" \
  "$study" method "$tmp/long-summary.toml"

# 11. A full disk (a file size limit: writes fail with EFBIG): the cache is one warning, the output folder stays
# the old one, and the error names the file and the reason.
cp "$tmp/atomic/results.json" "$tmp/before.json"
( ulimit -f 2; trap '' XFSZ; exec "$study" run "$tmp/w.toml" --out "$tmp/atomic" --cache-dir "$tmp/full-cache" -q ) > "$tmp/full.out" 2>&1
rc=$?
[ $rc -ne 0 ] && [ $rc -ne 130 ] && [ $rc -ne 143 ] && grep -q "cannot write .*(File too large)" "$tmp/full.out" &&
  [ "$(grep -c "warning: cannot write the cache file" "$tmp/full.out")" -eq 1 ] && cmp -s "$tmp/before.json" "$tmp/atomic/results.json" &&
  [ -z "$(find "$tmp" -maxdepth 1 -name '.atomic.tmp.*')" ] &&
  ok "a full disk: one warning for the cache, a clear error, the output folder unchanged" ||
  bad "full disk: exit $rc: $(head -c 500 "$tmp/full.out")"

# 12. Bounded input: a huge or endless input is refused after a few MiB; coefficients are bounded in size; numbers
# beyond a double, or parameters that make the time scale underflow, get their range.
start=$(date +%s)
expect "an endless spec on standard input is refused after 4 MiB" 2 "<stdin>: more than a spec file may hold \(at most 4 MiB\)" \
  timeout 20 "$study" run - --out "$tmp/o9" < /dev/zero
[ $(( $(date +%s) - start )) -lt 10 ] && ok "the endless input is given up in seconds" || bad "reading /dev/zero took $(( $(date +%s) - start )) s"
{ printf '[methods.big]\nkind = "runge-kutta"\norder = 1\nb = ["1"]\na = [["0"]]\n'; head -c 5000000 /dev/zero | tr '\0' '#'; echo; } > "$tmp/big.toml"
expect "a methods file over 4 MiB is refused unread" 2 "big.toml: is larger than a methods file \(TOML\) may be \(at most 4 MiB\)" \
  "$study" method "$tmp/big.toml"
printf '[methods.long]\nkind = "runge-kutta"\norder = 1\nb = ["1/%s"]\na = [["0"]]\n' "$(printf '7%.0s' $(seq 101))" > "$tmp/long.toml"
expect "a coefficient of more than 100 digits is refused, naming the file and line" 2 "long.toml:4: .*more than 100 digits" \
  "$study" method "$tmp/long.toml"
expect "a parameter as a decimal string of more than 100 characters is refused (results.json could not hold it)" 2 \
  "command line: params.omega: a decimal string of 202 characters; at most 100" \
  "$study" run --problem harmonic --param "omega=1.$(printf '0%.0s' $(seq 200))" --integrators rk4 --t-end 1 --dt 0.1 --out "$tmp/o12"
expect "--t-end beyond a double gets the range, not 'not a number'" 2 "--t-end 1e400: out of range: a double holds magnitudes" \
  "$study" run --problem harmonic --integrators rk4 --t-end 1e400 --dt 0.1 --out "$tmp/o10"
spec $'t_end = 1000000000000000000\ndt = [0.1]\n'
expect "a huge whole-number t_end gets the range in time scales, not 'must be a number'" 2 "t_end = 1e\+18 is .* time scales of harmonic" \
  "$study" run "$tmp/w.toml" --out "$tmp/o11"
expect "parameters that underflow the time scale are named, not 'time scale 0'" 2 "time scale \(period\) of 0, outside what a double can step" \
  "$study" run --problem earth-moon --param distance=1e-150 --integrators rk4 --t-end 1 --dt 0.1 --out "$tmp/o12"
expect "a parameter exactly at its bound 1e-150 is valid in float128 too" 0 '"t": "1\.0' \
  "$study" reference kepler --param e=1e-150 --at 1 --no-cache

# 13. A write that fails is a failure (issue 34): standard output on a full device, or on a pipe whose reader is
# gone while SIGPIPE is ignored (as some CI runners start their jobs), ends every command non-zero with a message.
printf '[methods.mine]\nkind = "runge-kutta"\norder = 2\nb = ["0", "1"]\na = [["0", "0"], ["1/2", "0"]]\nc = ["0", "1/2"]\n' > "$tmp/mine.toml"
output_cases=("list" "check $fixture -v" "--help" "reference kepler --at 1 --no-cache" "method $tmp/mine.toml"
              "run --problem harmonic --integrators rk4 --t-end 1 --dt 0.1 --out $tmp/o13 --no-cache --no-report")
for args in "${output_cases[@]}"; do
  # shellcheck disable=SC2086  # each case is an argument list
  expect "study $args > /dev/full: exit 1, the lost output named" 1 "could not write to standard output \(No space left on device\)" \
    bash -c '"$@" > /dev/full' -- "$study" $args
done
for args in "${output_cases[@]:0:4}"; do  # the quick ones: the same exit path as the others
  # shellcheck disable=SC2086
  expect "study $args into a closed pipe, SIGPIPE ignored: exit 1, the closed pipe named" 1 \
    "could not write to standard output \(the reader of the pipe has closed it\)" python3 -c '
import os, subprocess, sys
r, w = os.pipe()
os.close(r)  # the reader is gone before the first write
p = subprocess.run(sys.argv[1:], stdout=w, restore_signals=False)  # Python ignores SIGPIPE, and so does the child
sys.exit(p.returncode)' "$study" $args
done
spec $'t_end = 1.0\ndt = [0.1, 0.05]\n'
expect "a failed write of results (a file size limit, SIGXFSZ not ignored) is exit 1, naming the file; no staging left" 1 \
  "the results were not written .*cannot write .*\(File too large\)" bash -c 'ulimit -f 2; exec "$@"' -- \
  "$study" run "$tmp/w.toml" --out "$tmp/atomic" --no-cache -q
[ -z "$(find "$tmp" -maxdepth 1 -name '.atomic.tmp.*')" ] && ok "SIGXFSZ: no staging folder left" ||
  bad "SIGXFSZ: a staging folder was left: $(find "$tmp" -maxdepth 1 -name '.atomic.tmp.*')"

# 14. A command waiting on standard input answers a signal within a second (read(2) alone would be restarted).
for sig in INT TERM; do
  rm -f "$tmp/in.fifo" && mkfifo "$tmp/in.fifo"
  exec 3<> "$tmp/in.fifo"  # held open: the command waits for input that does not come, with no end of file
  timeout 60 "$study" run - --out "$tmp/o14" < "$tmp/in.fifo" > "$tmp/stdin.out" 2>&1 &
  pid=$!
  sleep 0.5
  start=$(date +%s%N)
  kill -$sig $pid
  wait $pid
  rc=$? ms=$(( ($(date +%s%N) - start) / 1000000 ))
  exec 3>&-
  [ $rc -eq $((128 + $(kill -l $sig))) ] && [ $ms -lt 1000 ] && [ ! -e "$tmp/o14" ] && ok "SIG$sig stops study run - waiting on standard input (${ms} ms, exit $rc)" ||
    bad "SIG$sig while study run - waits on standard input: exit $rc after ${ms} ms: $(head -c 300 "$tmp/stdin.out")"
done

# 15. Text from input is echoed escaped: an escape sequence, a carriage return or a NUL in a key or a value reaches
# the terminal as \xNN, and a value of thousands of characters by its ends and its length.
printf 'name = "w"\nproblem = "harmonic"\nintegrators = ["rk4"]\nt_end = 1.0\ndt = [0.1]\n"a\\u001b[31mb\\rc" = 1\n' > "$tmp/esc.toml"
expect "an escape sequence and a carriage return in a key are shown escaped" 2 'esc.toml:6: a\\x1b\[31mb\\x0dc: unknown key' \
  "$study" run "$tmp/esc.toml" --out "$tmp/o15"
printf 'name = "w"\nproblem = "harmonic"\nintegrators = ["rk4"]\nt_end = 1.0\ndt = [0.1]\n"a\\nstudy check: PASS" = 1\n' > "$tmp/nl.toml"
expect "a line break in a key is shown as \\x0a: no line of the input's own under the program's name" 2 'nl.toml:6: a\\x0astudy check: PASS: unknown key' \
  "$study" run "$tmp/nl.toml" --out "$tmp/o15"
printf 'name = "w"\nproblem = "harmonic"\nintegrators = ["rk4\\u0000x"]\nt_end = 1.0\ndt = [0.1]\n' > "$tmp/nul.toml"
expect "a NUL in a value is shown as \\x00, the rest of the message kept" 2 "unknown integrator 'rk4\\\\x00x'.*; built-in: euler" \
  "$study" run "$tmp/nul.toml" --out "$tmp/o15"
out=$("$study" run "$tmp/esc.toml" --out "$tmp/o15" 2>&1; "$study" run "$tmp/nul.toml" --out "$tmp/o15" 2>&1)
! LC_ALL=C grep -q $'[\x01-\x08\x0b-\x1f\x7f]' <<<"$out" && ok "no control character reaches the terminal" || bad "raw control characters echoed: $(od -c <<<"$out" | head -5)"
printf '[methods.long]\nkind = "runge-kutta"\norder = 1\nb = ["1/%s"]\na = [["0"]]\n' "$(printf '7%.0s' $(seq 5000))" > "$tmp/huge.toml"
expect "a coefficient of 5000 digits is echoed by its ends and its length" 2 "b\[0\]: '1/7{61}\.\.\.\[5004 bytes\]\.\.\.7{15}' is not a number" \
  "$study" method "$tmp/huge.toml"
[ "$("$study" method "$tmp/huge.toml" 2>&1 | wc -c)" -lt 600 ] && ok "its message stays short" || bad "the message echoes the coefficient whole"
expect "study method describes a shipped methods file given by its path (its ids are the shipped ones, no clash)" 0 "rk38  \(" \
  "$study" method "$(dirname "$fixture")/../../study/methods/runge-kutta.toml"
mkdir -p "$tmp/data/profiles/empty"
for d in specs methods; do ln -s "$(dirname "$fixture")/../../study/$d" "$tmp/data/$d"; done
expect "an empty profile is refused before anything runs (results with no study would be refused by every reader)" 2 \
  "--profile empty: the profile holds no spec" env STUDY_DATA_DIR="$tmp/data" "$study" run --profile empty --out "$tmp/o16"

# A shipped table's declared order is held to its coefficients' on first use (unit tests hold every shipped one):
# an installed copy edited to declare 9 for yoshida8 is refused when a study uses it, naming the file and line.
mkdir -p "$tmp/edited" && cp -r "$(dirname "$fixture")/../../study/methods" "$tmp/edited/methods"
for d in specs profiles; do ln -s "$(dirname "$fixture")/../../study/$d" "$tmp/edited/$d"; done
sed -i '30s/order = 8/order = 9/' "$tmp/edited/methods/composition.toml"
expect "a shipped table edited to declare more than its coefficients have is refused when used (exit 2)" 2 \
  "composition.toml:30: methods.yoshida8.order: declares order 9, but the coefficients have order 8" \
  env STUDY_DATA_DIR="$tmp/edited" "$study" run --problem kepler --integrators yoshida8 --t-end 1 --dt 0.1 --out "$tmp/o17"
expect "... and by study list, which shows every table's predicted order (exit 2)" 2 "methods.yoshida8.order: declares order 9" \
  env STUDY_DATA_DIR="$tmp/edited" "$study" list --integrators

# 16. A reference no finer than the errors measured against it: the run warns, the gate refuses the study (exit 2),
# each naming the bound, the largest error and what would help.
printf 'name = "coarse"\nproblem = "pendulum"\nintegrators = ["rk4"]\nt_end = 5.0\ndt = [0.004, 0.002, 0.001]\nreference_tol = 1e-10\n' > "$tmp/coarse.toml"
expect "the run warns of a reference whose bound is not 100 times below the largest error" 0 \
  "warning: coarse: its reference's certified error bound [0-9]\.[0-9]+e-1[0-2] is not 100 times below the largest error .*a tighter reference_tol \(now 1e-10\)" \
  "$study" run "$tmp/coarse.toml" --out "$tmp/coarse" --no-cache -q
expect "the gate refuses that study, naming the bound" 2 "study 'coarse': its reference's certified error bound [0-9]\.[0-9]+e-1[0-2] is not 100 times below" \
  "$study" check "$tmp/coarse"

# 17. Fault injection (issue 34; /dev/full, a closed pipe and ulimit -f are in 11 and 13): a read-only folder, and
# SIGKILL at points spread over a run and its report, publishing included.  Each command that could not write
# fails naming what, and the results folder is the old one or the new one, whole, never a mix.
unprivileged() {  # root writes into read-only folders: drop the capabilities that let it
  if [ "$(id -u)" -eq 0 ]; then setpriv --bounding-set=-dac_override,-dac_read_search,-fowner -- "$@"; else "$@"; fi
}
spec $'t_end = 1.0\ndt = [0.1, 0.05]\n'
mkdir -p "$tmp/ro" && "$study" run "$tmp/w.toml" --out "$tmp/ro/res" -q > /dev/null 2>&1 && cp -a "$tmp/ro/res" "$tmp/ro-before"
chmod 555 "$tmp/ro"
expect "read-only folder: a run into a new folder there is refused before any work" 2 "--out .*/ro/new: .*/ro is not writable by this user" \
  unprivileged "$study" run "$tmp/w.toml" --out "$tmp/ro/new"
expect "read-only folder: a run replacing results there fails, naming what it could not create" 1 \
  "cannot create .*/ro/\.res\.tmp\.[0-9.]*: Permission denied" unprivileged "$study" run "$tmp/w.toml" --out "$tmp/ro/res"
expect "read-only folder: a report of results there fails the same way" 1 "cannot create .*/ro/\.res\.tmp\.[0-9.]*: Permission denied" \
  unprivileged "$study" report "$tmp/ro/res"
expect "read-only folder: a baseline written there is refused before any work" 2 "--out's folder .*ro is not writable by this user" \
  unprivileged "$study" baseline "$tmp/ro/res" --out "$tmp/ro/b.toml"
expect "read-only folder: check --junit there is refused before judging" 2 "--junit's folder .*ro is not writable by this user" \
  unprivileged "$study" check "$tmp/ro/res" --junit "$tmp/ro/j.xml"
diff -r "$tmp/ro-before" "$tmp/ro/res" > /dev/null && [ "$(ls -A "$tmp/ro" | tr '\n' ' ')" = ".res.lock res " ] &&
  ok "read-only folder: the results there unchanged, nothing added" || bad "read-only folder changed: $(ls -A "$tmp/ro")"
chmod 755 "$tmp/ro"
# SIGKILL: the old results are titled "old", the new "new"; a run with its report (gnuplot's plots) is killed at
# 12 points spread over its measured duration and a bit beyond.  After each kill the folder must be read whole by
# the gate (its tables agree with results.json: a mix is refused) and its REPORT.md must carry results.json's title.
printf 'name = "k"\ntitle = "old"\nproblem = "harmonic"\nintegrators = ["rk4", "leapfrog"]\nt_end = 100\ndt = [0.02, 0.01]\nsamples = 1024\n' > "$tmp/k.toml"
"$study" run "$tmp/k.toml" --out "$tmp/kill" -q > /dev/null 2>&1
sed -i 's/title = "old"/title = "new"/; s/dt = \[0.02, 0.01\]/dt = [0.02, 0.01, 0.005]/' "$tmp/k.toml"
cp -a "$tmp/kill" "$tmp/kill-old"
"$study" run "$tmp/k.toml" --out "$tmp/kill-timed" -q > /dev/null 2>&1  # the caches warm, as for the kills below
cp -a "$tmp/kill-old/." "$tmp/kill-timed/"  # and timed replacing a folder, as they do
start=$(date +%s%N)
"$study" run "$tmp/k.toml" --out "$tmp/kill-timed" -q > /dev/null 2>&1
span=$(( ($(date +%s%N) - start) / 1000 ))  # microseconds
olds=0 news=0 mixed=""
for k in $(seq 1 12); do
  rm -rf "$tmp/kill" && cp -a "$tmp/kill-old" "$tmp/kill"
  "$study" run "$tmp/k.toml" --out "$tmp/kill" -q > /dev/null 2>&1 &
  pid=$!
  sleep "$(awk -v s="$span" -v k="$k" 'BEGIN { printf "%.4f", 1.5 * s * k / 12 / 1e6 }')"  # up to 1.5 x its time
  kill -KILL $pid 2> /dev/null
  wait $pid 2> /dev/null
  title=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["studies"][0]["title"])' "$tmp/kill/results.json" 2>&1)
  "$study" check "$tmp/kill" > "$tmp/kill.out" 2>&1
  rc=$?
  if [ $rc -le 1 ] && grep -q "^# $title" "$tmp/kill/k/REPORT.md" 2> /dev/null && { [ "$title" = old ] || [ "$title" = new ]; }; then
    [ "$title" = old ] && olds=$((olds + 1)) || news=$((news + 1))
  else
    mixed="$mixed kill $k: title '$title', check exit $rc: $(head -c 200 "$tmp/kill.out");"
  fi
done
[ -z "$mixed" ] && [ $olds -ge 1 ] && [ $news -ge 1 ] &&
  ok "SIGKILL at 12 points over a run and its report: $olds left the old results whole, $news the new, none a mix" ||
  bad "SIGKILL: $olds old, $news new (each at least 1 expected);$mixed"
"$study" run "$tmp/k.toml" --out "$tmp/kill" -q > /dev/null 2>&1
[ -z "$(find "$tmp" -maxdepth 1 -name '.kill.tmp.*')" ] && ok "the next run removes what the killed ones left" ||
  bad "left after the kills: $(find "$tmp" -maxdepth 1 -name '.kill.tmp.*')"

# 9. Output options never replace an input, a results folder's files, or a file of the user's (issue 53).
rm -rf "$tmp/r53" && cp -r "$fixture" "$tmp/r53"
sum_before=$(md5sum "$tmp/r53/results.json")
expect "check --junit onto the results it reads is refused before any work" 2 "--junit .*r53/results.json: is an input of this command" \
  "$study" check "$tmp/r53" --junit "$tmp/r53/results.json"
expect "check --junit into a study folder of the results is refused" 2 "--junit .*runs.csv: (is inside fixture, the run's own|exists and is not a JUnit file)" \
  "$study" check "$tmp/r53" --junit "$tmp/r53/fixture/runs.csv"
[ "$(md5sum "$tmp/r53/results.json")" = "$sum_before" ] && ok "the results are untouched by the refused --junit" || bad "--junit changed the results"
printf 'name = "mine"\n' > "$tmp/mine.toml"
expect "check --junit over a file of the user's (not an earlier JUnit file) is refused" 2 "--junit .*mine.toml: exists and is not a JUnit file" \
  "$study" check "$tmp/r53" --junit "$tmp/mine.toml"
grep -q 'name = "mine"' "$tmp/mine.toml" && ok "the user's file is kept" || bad "the user's file was replaced"
expect "check --junit writes a new file" 0 "" "$study" check "$tmp/r53" --junit "$tmp/j.xml"
expect "check --junit replaces its own earlier file" 0 "" "$study" check "$tmp/r53" --junit "$tmp/j.xml"
ln -sf "$tmp/mine.toml" "$tmp/j-link.xml"
expect "check --junit onto a symbolic link is refused" 2 "--junit .*j-link.xml: is not a regular file" "$study" check "$tmp/r53" --junit "$tmp/j-link.xml"
spec 't_end = 1.0
dt = [0.1, 0.05]
'
expect "run --task-log onto another folder's results is refused before any work" 2 "--task-log .*results.json: (is one of the run's own files|exists and is not a task log)" \
  "$study" run "$tmp/w.toml" --out "$tmp/o-tl2" --no-cache --task-log "$tmp/r53/results.json"
expect "run --task-log onto its own spec is refused" 2 "--task-log .*w.toml: is an input" \
  "$study" run "$tmp/w.toml" --out "$tmp/o-tl2" --no-cache --task-log "$tmp/w.toml"
expect "run --task-log inside its own output folder is refused" 2 "--task-log .*lies in the output folder" \
  "$study" run "$tmp/w.toml" --out "$tmp/o-tl2" --no-cache --task-log "$tmp/o-tl2/log.csv"
[ ! -e "$tmp/o-tl2" ] && grep -q 'name = "w"' "$tmp/w.toml" && ok "nothing ran and the spec is kept" || bad "a refused --task-log ran or wrote"
expect "baseline --out over a run's own file in a results folder is refused" 2 "--out .*REPORT.md: is one of the run's own files in the results folder" \
  "$study" baseline "$tmp/o-mpi1" --out "$tmp/o-mpi1/REPORT.md"
expect "check --junit into a study's folder of a results folder is refused" 2 "--junit .*: is inside w, the run's own" \
  "$study" check "$tmp/o-mpi1" --junit "$tmp/o-mpi1/w/j.xml"
expect "check --junit beside the results, a new file at their top, is written" 0 "" "$study" check "$tmp/r53" --junit "$tmp/r53/junit.xml"

# 10. A results folder whose study folder is a link elsewhere: the report refuses to write through it.
rm -rf "$tmp/r-link" "$tmp/elsewhere" && cp -r "$fixture" "$tmp/r-link" && mkdir -p "$tmp/elsewhere"
"$study" report "$tmp/r-link" --no-plots > /dev/null 2>&1
rmdir "$tmp/elsewhere" && mv "$tmp/r-link/fixture" "$tmp/elsewhere"
echo "not yours" > "$tmp/elsewhere/REPORT.md"
ln -s "$tmp/elsewhere" "$tmp/r-link/fixture"
expect "study report with a study folder that links elsewhere is refused" 2 "fixture: is a symbolic link.*never links" \
  "$study" report "$tmp/r-link" --no-plots
[ "$(cat "$tmp/elsewhere/REPORT.md")" = "not yours" ] && ok "nothing was written through the link" || bad "the report wrote through the link"

# 11. A file-size limit: the write fails and the command with it; gnuplot (SIGXFSZ at its default) too.
rm -rf "$tmp/fsz" && cp -r "$fixture" "$tmp/fsz"
( ulimit -f 8; "$study" report "$tmp/fsz" > "$tmp/fsz.out" 2>&1; echo $? > "$tmp/fsz.rc" )
[ "$(cat "$tmp/fsz.rc")" = 1 ] && [ ! -e "$tmp/fsz/REPORT.md" ] && ok "a report over ulimit -f fails (exit 1) and publishes nothing" ||
  bad "ulimit -f: exit $(cat "$tmp/fsz.rc"), $(head -c 300 "$tmp/fsz.out"); REPORT.md $(ls "$tmp/fsz/REPORT.md" 2>&1)"

# 11b. A gnuplot that writes half an SVG and exits 0 (as gnuplot does when its writes fail): the report fails,
# naming the incomplete picture, and the old report stays.
cat > "$tmp/bin/halfplot" <<'EOS'
#!/bin/sh
if [ "$1" = "--version" ]; then echo "gnuplot 5.4 (half)"; exit 0; fi
for a in "$@"; do
  printf '%s\n' "$a" | grep -o "out = '[^']*'" | sed "s/out = '\(.*\)'/\1/" | while read -r o; do
    printf '<?xml version="1.0"?>\n<svg width="600" height="480">\n<g>\n' > "$o.svg"
  done
done
exit 0
EOS
chmod +x "$tmp/bin/halfplot"
rm -rf "$tmp/half" && cp -r "$fixture" "$tmp/half" && echo "old report" > "$tmp/half/REPORT.md"
expect "a gnuplot that writes a truncated SVG and exits 0 fails the report, naming the picture" 1 "not published .*its SVG is incomplete" \
  "$study" report "$tmp/half" --gnuplot "$tmp/bin/halfplot"
[ "$(cat "$tmp/half/REPORT.md")" = "old report" ] && ok "the old report stays after a truncated picture" || bad "a truncated picture replaced the report"

# 12. A file of the user's in a results folder survives the next run into it, and is named.
echo "my notes" > "$tmp/o-mpi1/notes.md"
expect "a run into results that hold a file of the user's keeps it, and says so" 0 "kept notes.md in .*o-mpi1" \
  "$study" run "$tmp/w.toml" --out "$tmp/o-mpi1" --no-cache --quiet --no-report
[ "$(cat "$tmp/o-mpi1/notes.md" 2>/dev/null)" = "my notes" ] && ok "the user's file is there after the run" || bad "the run deleted the user's notes.md"

# 12b. A run whose plots fail (a gnuplot that errs, first on PATH): its results are published, its report says which
# plots are missing, and the run fails naming them (study report draws them again).
mkdir -p "$tmp/gpbin" && cp "$tmp/bin/failplot" "$tmp/gpbin/gnuplot"
spec 't_end = 1.0
dt = [0.1, 0.05]
'
expect "a run whose plots fail publishes its results and exits 1, naming the failure" 1 "results are in .*o-gp, but their report could not be rendered: [0-9]+ plot\(s\) failed: gnuplot failed on" \
  env PATH="$tmp/gpbin:$PATH" "$study" run "$tmp/w.toml" --out "$tmp/o-gp" --no-cache --quiet
[ -s "$tmp/o-gp/results.json" ] && ok "the results of a run whose plots failed are there" || bad "no results after failed plots"

# 13. A step's linear algebra is counted and interruptible: a 64-stage implicit table on 16 bodies factors a 3072 x 3072
# Newton matrix each step (seconds), which --max-work counts and SIGTERM stops within a second.
{
  printf 'name = "big"\nproblem = "plummer"\nparams = { n = 16 }\nt_end = 0.1\nintegrators = ["dirk64"]\ndt = [0.1]\nmetrics = ["global"]\n'
  printf '[methods.dirk64]\nkind = "runge-kutta"\norder = 1\nsource = "a hostile 64-stage implicit table"\na = ['
  for i in $(seq 1 64); do row=$(printf '"1/128", %.0s' $(seq 1 $i)); printf '[%s]%s' "${row%, }" "$([ $i -lt 64 ] && echo ', ')"; done
  printf ']\nb = [%s]\n' "$(row=$(printf '"1/64", %.0s' $(seq 1 64)); echo "${row%, }")"
} > "$tmp/big.toml"
expect "a 64-stage implicit table on 16 bodies: its factorisations are counted in --max-work" 2 "would take about [0-9.e+]* weighted .*dirk64" \
  "$study" run "$tmp/big.toml" --out "$tmp/big" --no-cache --max-work 1e8
"$study" run "$tmp/big.toml" --out "$tmp/big" --max-work 1e11 > "$tmp/big.out" 2>&1 &
pid=$!
for _ in $(seq 1 600); do tr '\r' '\n' < "$tmp/big.out" | grep -q "runs 0/1" && break; sleep 0.1; done
sleep 0.5  # inside the step's factorisation
start=$(date +%s%N)
kill -TERM $pid
wait $pid
rc=$?
ms=$(( ($(date +%s%N) - start) / 1000000 ))
[ $rc -eq 143 ] && [ $ms -lt 1000 ] && [ ! -e "$tmp/big" ] && ok "SIGTERM inside a 3072 x 3072 factorisation stops the run in ${ms} ms, nothing written" ||
  bad "SIGTERM in a big implicit step: exit $rc after ${ms} ms: $(tr '\r' '\n' < "$tmp/big.out" | tail -2)"

finish
