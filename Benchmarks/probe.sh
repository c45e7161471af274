#!/usr/bin/env bash
# Measurements the benchmark harness cannot take, on the benchmarks' own fixtures (see Tools/Probe).
#
#   ./probe.sh instructions [benchmark...]   instructions per operation, from valgrind's callgrind
#                                            (the run's count minus a setup-only run's, divided);
#                                            they repeat to the instruction
#   ./probe.sh refcounting [benchmark...]    time per operation built as usual and built with
#                                            non-atomic reference counting
#                                            (`-assume-single-threaded`, an experiment only: it is
#                                            unsafe with threads), best of 7 rounds each
#
# Without names, both cover the dispatch and perform benchmarks. Needs valgrind for the first.
set -euo pipefail
cd "$(dirname "$0")"

mode=${1:-}
shift || true
names=("$@")
if [ ${#names[@]} -eq 0 ]; then
  names=(TriggerOnTarget Trigger9Up Bubble64 Request8Up Request8UpObserved TreePerform16Deep4Providers
    TreePerform16Deep4ProvidersObserved TreePerform16Deep4ProvidersCaptured PerformRegistered
    Redeclare1000Unchanged)
fi

# Operations per measurement: performs cost about ten triggers.
operations() {
  case $1 in
  *Perform*) echo 20000 ;;
  Redeclare*) echo 200 ;;
  *) echo 100000 ;;
  esac
}

# Runs a command, showing its output only when it fails.
quietly() {
  local output
  output=$("$@" 2>&1) || { echo "$output"; return 1; }
}

case $mode in
instructions)
  command -v valgrind >/dev/null || { echo "needs valgrind (apt-get install valgrind)"; exit 1; }
  quietly swift build -c release --product Probe
  probe=$(swift build -c release --product Probe --show-bin-path)/Probe
  collected() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$probe" "$1" "$2" 2>&1 |
      awk '/Collected/ { print $NF }'
  }
  for name in "${names[@]}"; do
    count=$(operations "$name")
    setup=$(collected "$name" 0)
    total=$(collected "$name" "$count")
    echo "$name: $(((total - setup) / count)) instructions"
  done
  ;;
refcounting)
  quietly swift build -c release --product Probe
  atomic=$(swift build -c release --product Probe --show-bin-path)/Probe
  flags=(-Xswiftc -Xfrontend -Xswiftc -assume-single-threaded)
  quietly swift build -c release --product Probe --scratch-path .build-nonatomic "${flags[@]}"
  nonatomic=$(swift build -c release --product Probe --scratch-path .build-nonatomic "${flags[@]}" \
    --show-bin-path)/Probe
  for name in "${names[@]}"; do
    count=$(operations "$name")
    echo "$("$atomic" --time "$name" $((count * 10))) atomic, $("$nonatomic" --time "$name" $((count * 10)) |
      sed 's/.*: //') non-atomic"
  done
  ;;
*)
  sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
  ;;
esac
