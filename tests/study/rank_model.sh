#!/usr/bin/env bash
# study/scripts/rank-model on a task log worked by hand: two studies, A (reference 2 s; runs 3 s and 1 s) and B
# (reference 1 s; a run of 2 s).  One thread: 9 s.  Two: the references at once (A to 2 s, B to 1 s); at 1 s B's run
# (A's are not ready) to 3 s; at 2 s A's 3 s run to 5 s; at 3 s A's 1 s run to 4 s: 5 s, the longest chain (A: 2 + 3).
# Three: the same 5 s.  With 0.5 s of the leader's per item on one thread: 9 + 5 x 0.5 = 11.5 s.
set -uo pipefail
model=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/log.csv" <<'CSV'
phase,item,rank,seconds,estimated_cost,what
references,0,0,2.0,20,"a (kepler)"
references,1,1,1.0,10,"b (kepler)"
runs,0,0,3.0,30,"a: rk4 dt=0.1"
runs,1,1,2.0,20,"b: rk4 dt=0.1"
runs,2,0,1.0,10,"a: rk4 dt=0.2"
CSV
passed=0 failed=0
check() { if grep -qx "$2" <<<"$3"; then echo "ok: $1"; passed=$((passed + 1)); else echo "FAIL: $1: $3"; failed=$((failed + 1)); fi; }
out=$(python3 "$model" "$tmp/log.csv" --ranks 1,2,3 --dispatch 0)
check "one thread: the sum, 9 s" "1,1,9.00,9.00,1.00,1.00" "$out"
check "two ranks: 5 s, the runs waiting for their reference" "2,1,5.00,5.00,1.80,0.90" "$out"
check "three ranks: still the longest chain, 5 s" "3,1,5.00,5.00,1.80,0.60" "$out"
check "the chain and the work" "5 items, 9.0 s of work; longest chain 5.00 s; the leader's dispatch 0.00 s; serial 0.00 s" "$out"
out=$(python3 "$model" "$tmp/log.csv" --ranks 1 --dispatch 0.5 --serial 1)
check "0.5 s of dispatch per item and 1 s serial: 11.5 + 1 s" "1,1,11.50,12.50,1.00,1.00" "$out"
out=$(python3 "$model" "$tmp/log.csv" --ranks 2 --dispatch 0 --copies 2)
check "two copies on two ranks: 9 s, the sum over two" "2,1,9.00,9.00,2.00,1.00" "$out"
python3 "$model" "$tmp/log.csv" --ranks 0 >/dev/null 2>&1
[ $? -eq 2 ] && { echo "ok: 0 ranks is refused with 2"; passed=$((passed + 1)); } || { echo "FAIL: 0 ranks"; failed=$((failed + 1)); }
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
