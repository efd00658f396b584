# Sourced by ci/report.d/*.sh and ci/memreport.sh: where generated inputs
# live and how a run reuses them.
#   INPUTS  the cache folder, BUILD/inputs unless set: outside report/ (which
#           keeps results only), kept between runs, removed by make clean.
#   REPORT_SIZE=small  the report's tiny variant (seconds, for the rendering
#           check in make check); any other value: the full inputs.
# report_input FILE PARCHECK ARGS...: runs PARCHECK ARGS (which writes FILE)
# unless FILE is there and was made by the same ARGS (FILE.args holds them:
# the generators are seeded, so the same ARGS give the same file).
INPUTS=${INPUTS:-${BUILD:-build}/inputs}
mkdir -p "$INPUTS"
report_input() {
  local file=$1; shift
  local want="${*:2}"
  if [ -s "$file" ] && [ "$(cat "$file.args" 2>/dev/null)" = "$want" ]; then
    return 0
  fi
  rm -f "$file" "$file.args"
  "$@" >/dev/null || return 1
  printf '%s\n' "$want" >"$file.args"
}
small() { [ "${REPORT_SIZE:-}" = small ]; }
