# What the test scripts share (sourced): a temporary folder removed on exit, one line per case, the summary.
#   ok NAME / bad NAME: a case passed or failed
#   expect NAME EXIT_CODE PATTERN CMD...: CMD exits with EXIT_CODE and its output (stdout and stderr) matches PATTERN
#   finish: prints "N passed, M failed" and exits 0 only when none failed
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0
ok() { passed=$((passed + 1)); echo "ok: $1"; }
bad() { failed=$((failed + 1)); echo "FAIL: $1"; }
expect() {
  local name=$1 code=$2 pattern=$3
  shift 3
  local out rc
  out=$("$@" 2>&1); rc=$?
  if [ "$rc" -eq "$code" ] && grep -qE -- "$pattern" <<<"$out"; then ok "$name"; else bad "$name (exit $rc, expected $code): $(head -c 800 <<<"$out")"; fi
}
finish() {
  echo "$passed passed, $failed failed"
  [ "$failed" -eq 0 ]
  exit
}
