# Sourced by ci/report.d/*.sh and ci/bench.d/spmm.sh: PLUGINS="a.so b.so"
# (make report PLUGINS=..., make bench PLUGINS=...) as parcheck options, in
# the array plugin_args: --plugin a.so --plugin b.so. Each run then adds the
# plugins' entries of its domain to its implementations (--impl all takes
# them; bench sweeps every SpMM entry), marked as plugins in the results.
plugin_args=()
for p in ${PLUGINS:-}; do
  plugin_args+=(--plugin "$p")
done
