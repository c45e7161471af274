#!/usr/bin/env bash
# Measurements the benchmark harness cannot take, on the benchmarks' own fixtures (see Tools/Probe).
#
#   ./probe.sh instructions [benchmark...]   instructions per operation, from valgrind's callgrind
#                                            (the run's count minus a setup-only run's, divided);
#                                            they repeat to within an instruction
#   ./probe.sh budgets                       the same for every benchmark in budgets.txt, checked
#                                            against its budget there: more than 3% over fails,
#                                            more than 10% under asks for a lower budget (CI runs it)
#   ./probe.sh refcounting [benchmark...]    time per operation built as usual and built with
#                                            non-atomic reference counting
#                                            (`-assume-single-threaded`, an experiment only: it is
#                                            unsafe with threads), best of 7 rounds each
#   ./probe.sh copies                        which ways of calling a closure stored in memory
#                                            copy it (Tools/CopyCheck/main.swift)
#   ./probe.sh flows [--files]               the package files each of five flows crosses (a key
#                                            press without and with a keymap, a click, a perform,
#                                            a placed view's update: Tools/Flows), traced function
#                                            by function in a debug build; a quarter of an hour
#
# Without names, `instructions` and `refcounting` cover every benchmark the probe knows. The first
# two need valgrind; `flows` needs gdb.
set -euo pipefail
# This script, by a path that still holds after the `cd` (`measure` runs it again).
self="$(cd "$(dirname "$0")" && pwd)/$(basename "$0")"
cd "$(dirname "$0")"

mode=${1:-}
shift || true
names=("$@")

# Operations per measurement, about 20 million instructions' worth: enough that what the first
# operation alone does (a parse cached after it, a buffer grown once) moves the count by less
# than an instruction.
operations() {
  case $1 in
  Decode*1MB) echo 3 ;;
  Remove*Chain1M) echo 2 ;;
  Remove*Chain100k) echo 10 ;;
  Remove*Chain10k) echo 50 ;;
  *Perform* | ClickToFocus* | MinimalClickToFocus* | *PointerMove*) echo 5000 ;;
  Redeclare*) echo 200 ;;
  Bind4000* | LoadKeymap10000) echo 5 ;;
  LoadKeymap1000) echo 50 ;;
  ExplainKey*) echo 2000 ;;
  InsertRow*) echo 2000 ;;
  FocusNextSparse* | ReferenceFlagWalk*) echo 200 ;;
  FocusDirection*) echo 1000 ;;
  PendingContinuations | ReferenceValidate50 | OfferedAt* | BindingsInEffect* | PaletteFilter*) echo 100 ;;
  *) echo 20000 ;;
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

# Instructions `probe` runs for `operations` of benchmark `name`, from callgrind.
collected() {
  local probe=$1 name=$2 operations=$3 only=()
  # The probes that build or undo something around each operation (a chain to remove, a placed
  # view to take out, a branch to switch back) count only what runs inside `probeMeasured`.
  case $name in
  Remove*Chain* | *Place* | InsertRow* | *Branch*) only=(--collect-atstart=no --toggle-collect='*probeMeasured*') ;;
  esac
  local output
  output=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "${only[@]}" "$probe" "$name" "$operations" 2>&1) ||
    { echo "the probe failed on $name:" >&2; tail -5 <<<"$output" >&2; exit 1; }
  awk '/Collected/ { print $NF }' <<<"$output"
}

# Prints `name count` for each benchmark, its instructions per operation: a run's count minus a
# setup-only run's, divided. Measures as many benchmarks at a time as there are cores.
measure() {
  local probe=$1
  shift
  # NB: each benchmark is measured by this script run again (`per-operation`), so that xargs
  # can run them side by side; the output lines come in the order they finish.
  printf '%s\n' "$@" | xargs -P "$(nproc)" -n 1 "$self" per-operation "$probe"
}

build_probe() {
  command -v valgrind >/dev/null || { echo "needs valgrind (apt-get install valgrind)"; exit 1; }
  quietly swift build -c release --product Probe
  echo "$(swift build -c release --product Probe --show-bin-path)/Probe"
}

case $mode in
per-operation)
  probe=${names[0]} name=${names[1]}
  count=$(operations "$name")
  setup=$(collected "$probe" "$name" 0)
  total=$(collected "$probe" "$name" "$count")
  echo "$name $(((total - setup) / count))"
  ;;
instructions)
  probe=$(build_probe)
  check_names "$probe"
  measure "$probe" "${names[@]}" | sort | awk '{ print $1 ": " $2 " instructions" }'
  ;;
budgets)
  # budgets.txt: one `name instructions` line per benchmark the probe knows, `#` comments.
  probe=$(build_probe)
  known=$("$probe" --list)
  budgeted=$(awk '!/^#/ && NF { print $1 }' budgets.txt | sort)
  unbudgeted=$(comm -23 <(sort <<<"$known") <(echo "$budgeted"))
  unknown=$(comm -13 <(sort <<<"$known") <(echo "$budgeted"))
  [ -z "$unbudgeted" ] || { echo "benchmarks with no budget in budgets.txt:"; echo "$unbudgeted"; exit 1; }
  [ -z "$unknown" ] || { echo "budgets.txt names benchmarks the probe does not know:"; echo "$unknown"; exit 1; }
  mapfile -t names <<<"$budgeted"
  measured=$(measure "$probe" "${names[@]}" | sort)
  # Over by more than 3% fails; under by more than 10% asks for the budget to come down, so that
  # a gain is kept rather than spent by the next change unseen.
  join <(awk '!/^#/ && NF { print $1, $2 }' budgets.txt | sort) <(echo "$measured") | awk '
    { printf "%-40s %10d %10d %+7.1f%%\n", $1, $2, $3, ($3 - $2) * 100 / $2 }
    $3 > $2 * 1.03 { over = over sprintf("  %s: budget %d, counted %d\n", $1, $2, $3) }
    $3 < $2 * 0.90 { under = under sprintf("  %s: budget %d, counted %d\n", $1, $2, $3) }
    BEGIN { printf "%-40s %10s %10s %8s\n", "benchmark", "budget", "counted", "change" }
    END {
      if (under) printf "\nmore than 10%% under budget: lower the budget in budgets.txt\n%s", under
      if (over) { printf "\nmore than 3%% over budget (raising one is a commit of its own that says why):\n%s", over; exit 1 }
    }'
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
flows)
  command -v gdb >/dev/null || { echo "needs gdb (apt-get install gdb)"; exit 1; }
  quietly swift build --product Flows
  calls=$(mktemp)
  trap 'rm -f "$calls"' EXIT
  FLOWS_EXE="$(swift build --product Flows --show-bin-path)/Flows" FLOWS_SRC="$(cd .. && pwd)/Sources/" \
    FLOWS_MAIN="$PWD/Tools/Flows/main.swift" FLOWS_CALLS="$calls" quietly gdb -batch -x Tools/Flows/trace.py
  python3 Tools/Flows/count.py "$calls" "${names[@]}"
  ;;
*)
  sed -n '2,21p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
  ;;
esac
