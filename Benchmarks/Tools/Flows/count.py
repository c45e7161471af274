# Counts what each traced flow crosses (`probe.sh flows`): the package's files its calls enter,
# and how often it enters a file it had already left. Only the package's own functions count: a
# standard-library specialization is listed under whichever file used it first, and a
# compiler-generated helper (an outlined copy, a value witness, a partial-application thunk) is
# nothing a reader follows.
import re
import subprocess
import sys

ours = re.compile(r"^\$s(8ViewTree|7Actions|15ViewTreeActions|12TerminalKeys)")
generated = re.compile(
    r"^(outlined |getEnumTag|storeEnumTag|initializeWith|assignWith|destroy for|lazy protocol witness|"
    r"partial apply for|type metadata|reabstraction thunk|protocol witness for|merged )")
flows, names = [], []
for line in open(sys.argv[1]):
    line = line.rstrip("\n")
    if line.startswith("== "):
        flows.append((line[3:], []))
        continue
    path, name = line.split("  ", 1)
    if ours.match(name):
        flows[-1][1].append((path, name))
        names.append(name)
demangled = subprocess.run(
    ["swift", "demangle", "--simplified"], input="\n".join(names), capture_output=True, text=True
).stdout.split("\n")
readable = dict(zip(names, demangled))
for label, calls in flows:
    paths = [path for path, name in calls if not generated.match(readable[name])]
    files, returns, previous = [], 0, None
    for path in paths:
        if path != previous and path in files:
            returns += 1
        if path not in files:
            files.append(path)
        previous = path
    print("%s: %d files, %d returns to a file already left, %d calls" % (label, len(files), returns, len(paths)))
    if "--files" in sys.argv:
        for path in files:
            print("    " + path)
