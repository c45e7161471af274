# Run by gdb (`probe.sh flows`): logs each function of the package that the Flows executable
# enters between its `begin` and `end` calls, with its file, one flow after the other.
import os
import re

import gdb

exe, src, main, out = (os.environ[name] for name in ("FLOWS_EXE", "FLOWS_SRC", "FLOWS_MAIN", "FLOWS_CALLS"))
gdb.execute("set pagination off")
gdb.execute("set confirm off")
gdb.execute("file " + exe)
lines = open(main).read().split("\n")
begin_line = next(i + 1 for i, line in enumerate(lines) if "func begin(" in line)
end_line = next(i + 1 for i, line in enumerate(lines) if "func end(" in line)
# The flows' names, in the order `main.swift` lists them.
labels = re.findall(r'^\s*\(?\s*"([^"]+)",', open(main).read(), re.M)
gdb.execute("break %s:%d" % (main, begin_line), to_string=True)
gdb.execute("break %s:%d" % (main, end_line), to_string=True)
# A breakpoint on every function of every file of the package, on only while a flow runs.
for root, _, names in os.walk(src):
    for name in names:
        if name.endswith(".swift"):
            gdb.execute("rbreak %s:." % name, to_string=True)
package = [b for b in gdb.breakpoints() if b.number > 2]
for b in package:
    b.enabled = False
gdb.execute("run", to_string=True)
log = open(out, "w")
tracing, flow = False, 0
while True:
    try:
        frame = gdb.selected_frame()
    except gdb.error:
        break
    sal = frame.find_sal()
    path = sal.symtab.fullname() if sal.symtab else ""
    if path == main and sal.line in (begin_line, end_line):
        tracing = sal.line == begin_line
        if tracing:
            log.write("== %s\n" % labels[flow])
            flow += 1
        for b in package:
            b.enabled = tracing
    elif tracing and path.startswith(src):
        log.write("%s  %s\n" % (path[len(src):], frame.name() or ""))
    try:
        gdb.execute("continue", to_string=True)
    except gdb.error:
        break
log.close()
