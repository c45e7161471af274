#!/usr/bin/env bash
# Measurements the benchmark harness cannot take, on the benchmarks' own fixtures (see Tools/Probe).
#
#   ./probe.sh instructions [benchmark...]   instructions per operation, from valgrind's callgrind
#                                            (the run's count minus a setup-only run's, divided);
#                                            they repeat to within an instruction
#   ./probe.sh refcounting [benchmark...]    time per operation built as usual and built with
#                                            non-atomic reference counting
#                                            (`-assume-single-threaded`, an experiment only: it is
#                                            unsafe with threads), best of 7 rounds each
#   ./probe.sh copies                        which ways of calling a closure stored in memory
#                                            copy it (Tools/CopyCheck/main.swift)
#
# Without names, the first two cover every benchmark the probe knows. Needs valgrind for the first.
set -euo pipefail
cd "$(dirname "$0")"

mode=${1:-}
shift || true
names=("$@")

# Operations per measurement: performs cost about ten triggers.
operations() {
  case $1 in
  Decode*1MB) echo 3 ;;
  Remove*Chain1M) echo 2 ;;
  Remove*Chain100k) echo 10 ;;
  Remove*Chain10k) echo 50 ;;
  *Perform*) echo 20000 ;;
  Redeclare*) echo 200 ;;
  InsertRow*) echo 2000 ;;
  FocusNextSparse* | ReferenceFlagWalk*) echo 200 ;;
  FocusDirection*) echo 1000 ;;
  PendingContinuations | ReferenceValidate50 | OfferedAt* | BindingsInEffect* | PaletteFilter*) echo 200 ;;
  *) echo 100000 ;;
  esac
}

# Runs a command, showing its output only when it fails.
quietly() {
  local output
  output=$("$@" 2>&1) || { echo "$output"; return 1; }
}

# Takes every benchmark the probe knows when no name was given; fails with their list when a name
# is not one of them.
check_names() {
  local known
  known=$("$1" --list)
  [ ${#names[@]} -gt 0 ] || mapfile -t names <<<"$known"
  for name in "${names[@]}"; do
    grep -qx "$name" <<<"$known" || { echo "the probe does not know $name; it knows:"; echo "$known"; exit 2; }
  done
}

case $mode in
instructions)
  command -v valgrind >/dev/null || { echo "needs valgrind (apt-get install valgrind)"; exit 1; }
  quietly swift build -c release --product Probe
  probe=$(swift build -c release --product Probe --show-bin-path)/Probe
  check_names "$probe"
  collected() {
    # The probes that build or undo something around each operation (a chain to remove, a placed
  # view to take out, a branch to switch back) count only what runs inside `probeMeasured`.
    local only=()
    case $1 in
    Remove*Chain* | *Place* | InsertRow* | *Branch*) only=(--collect-atstart=no --toggle-collect='*probeMeasured*') ;;
    esac
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "${only[@]}" "$probe" "$1" "$2" 2>&1 |
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
  check_names "$atomic"
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
copies)
  assembly=$(mktemp)
  trap 'rm -f "$assembly"' EXIT
  swiftc -O -module-name CopyCheck -emit-assembly Tools/CopyCheck/main.swift -o "$assembly"
  for function in throughPointer throughAddressor asBorrowingParameter throughInout fromClassLet; do
    # The function's body, from its label to the end of its frame description.
    retains=$(awk -v name="$function" '
      /^\$s9CopyCheck[0-9]+[A-Za-z0-9_]*:/ { inside = index($0, name) > 0 }
      inside && /swift_retain/ { count++ }
      inside && /\.cfi_endproc/ { inside = 0 }
      END { print count + 0 }' "$assembly")
    echo "$function: $retains swift_retain"
  done
  ;;
*)
  sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
  ;;
esac
