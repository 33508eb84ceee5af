#!/usr/bin/env python3
"""meta:layering: every #include points down the layers (docs/design.md, "Folders and libraries").

    base <- nand <- controller <- host <- model <- app

A file may include headers of its own folder and of the folders its rule allows; the ground's
four folders (base/core, stats, config, time) and the plain-C++ folders have narrower rules,
and the folders that must not see SystemC (or Asio, or the trace readers) are checked for those
includes too. test/, bench/ and examples/ may include anything below them.

usage: layering_check.py SOURCE_DIR      check the tree (tracked files, else every file)
       layering_check.py --self-test     check that violations planted in a scratch tree are found
"""
import os
import re
import subprocess
import sys
import tempfile

BASE = ["base/core", "base/stats", "base/config", "base/time"]
PLAIN = ["base/core", "base/stats", "base/config"]  # the plain-C++ part of the ground
FIRMWARE = ["controller/hil", "controller/ftl", "controller/gc", "controller/sched", "controller/media",
            "controller/controller_stats.h"]
# The host's timed side and what it hands the drive (not host/nbd, not the trace readers).
HOST_TIMED = ["host/sata", "host/usb", "host/host_driver.h", "host/io_request.h", "host/io_record.h", "host/job_tally.h",
              "host/workload/io_source.h", "host/workload/job_generator.h", "host/workload/access_distribution.h"]

# (folder or file prefix, folders it may include, what it must not include). Longest prefix wins.
RULES = [
    ("base/core", ["base/core"], {"systemc"}),
    ("base/stats", ["base/core", "base/stats"], {"systemc"}),
    ("base/config", PLAIN, {"systemc"}),
    ("base/time", ["base/core", "base/time"], set()),
    ("nand", BASE + ["nand"], set()),
    # The firmware is plain C++: no SystemC, nothing of the flash array or of controller/sc.
    ("controller", PLAIN + FIRMWARE, {"systemc"}),
    ("controller/sc", BASE + ["nand", "controller"], set()),
    # The host's plain parts: workload generators, trace readers, the NBD protocol and server.
    ("host/workload", PLAIN + ["host/workload"], {"systemc"}),
    ("host/nbd", ["base/core", "host/nbd"], {"systemc"}),
    ("host", BASE + ["nand", "controller"] + HOST_TIMED, {"asio"}),
    # The assembled drive: what `find_package(ssdlab)` installs. No application, no Asio, no
    # NBD server, no trace readers (they would drag zlib, zstd and Boost into every platform).
    ("model", BASE + ["nand", "controller"] + HOST_TIMED + ["model"], {"asio"}),
    ("app", BASE + ["nand", "controller", "host", "model", "app"], set()),
]
TOPS = ("base/", "nand/", "controller/", "host/", "model/", "app/")
SYSTEMC = re.compile(r"#\s*include\s*<(systemc|systemc\.h|tlm|tlm\.h|tlm_utils/[^>]*|sysc/[^>]*)>")
ASIO = re.compile(r"#\s*include\s*<boost/asio")
QUOTED = re.compile(r'#\s*include\s*"([^"]+)"')


def rule_of(path):
    best = None
    for prefix, allowed, banned in RULES:
        if (path == prefix or path.startswith(prefix + "/")) and (best is None or len(prefix) > len(best[0])):
            best = (prefix, allowed, banned)
    return best


def allowed_include(target, allowed):
    return any(target == a or target.startswith(a + "/") for a in allowed)


def sources(root):
    try:
        out = subprocess.run(["git", "-C", root, "ls-files", "*.h", "*.cpp"], check=True, capture_output=True,
                             text=True).stdout.split()
        if out:
            return out
    except (OSError, subprocess.CalledProcessError):
        pass
    found = []
    for d, dirs, files in os.walk(root):
        dirs[:] = [x for x in dirs if not x.startswith(("build", "."))]
        found += [os.path.relpath(os.path.join(d, f), root) for f in files if f.endswith((".h", ".cpp"))]
    return found


def check(root):
    problems, checked, edges = [], 0, 0
    for path in sorted(sources(root)):
        rule = rule_of(path)
        if rule is None:
            continue  # test/, bench/, examples/: above everything
        prefix, allowed, banned = rule
        checked += 1
        with open(os.path.join(root, path), encoding="utf-8", errors="replace") as f:
            for n, line in enumerate(f, 1):
                m = QUOTED.search(line)
                if m and m.group(1).startswith(TOPS):
                    edges += 1
                    if not allowed_include(m.group(1), allowed):
                        problems.append(f"{path}:{n}: includes \"{m.group(1)}\", which {prefix}/ may not "
                                        f"(it may include: {', '.join(allowed)})")
                if "systemc" in banned and SYSTEMC.search(line):
                    problems.append(f"{path}:{n}: includes SystemC ({line.strip()}); {prefix}/ is plain C++")
                if "asio" in banned and ASIO.search(line):
                    problems.append(f"{path}:{n}: includes Boost.Asio; only host/nbd and app/ may")
    return problems, checked, edges


def self_test():
    planted = {
        "base/core/a.h": '#include "model/ssd.h"\n',
        "base/stats/b.h": '#include "base/time/timeline.h"\n',
        "controller/ftl/c.h": "#include <systemc>\n",
        "controller/gc/d.h": '#include "controller/sc/device_controller.h"\n',
        "host/nbd/e.h": '#include "controller/sc/sata_if.h"\n',
        "host/nbd/f.cpp": "#include <systemc>\n",
        "model/g.h": '#include "app/run/report.h"\n',
        "model/h.h": '#include "host/workload/trace/trace_source.h"\n',
        "nand/i.h": '#include "controller/ftl/ftl.h"\n',
        "host/sata/j.h": '#include "model/ssd.h"\n',
    }
    clean = {"controller/ftl/ok.h": '#include "controller/gc/victim_policy.h"\n#include "base/core/types.h"\n',
             "model/ok.h": '#include "host/sata/ahci_hba.h"\n#include <systemc>\n'}
    with tempfile.TemporaryDirectory() as root:
        for name, text in {**planted, **clean}.items():
            os.makedirs(os.path.dirname(os.path.join(root, name)), exist_ok=True)
            with open(os.path.join(root, name), "w") as f:
                f.write(text)
        problems, _, _ = check(root)
    missed = [p for p in planted if not any(q.startswith(p + ":") for q in problems)]
    false = [q for q in problems if q.split(":")[0] in clean]
    for m in missed:
        print(f"self-test: the planted violation in {m} was not found")
    for q in false:
        print(f"self-test: a clean file was reported: {q}")
    if missed or false:
        return 1
    print(f"self-test: all {len(planted)} planted violations found, no clean file reported")
    return 0


def main():
    if len(sys.argv) == 2 and sys.argv[1] == "--self-test":
        return self_test()
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    problems, checked, edges = check(sys.argv[1])
    for p in problems:
        print(p)
    if problems:
        print(f"layering: {len(problems)} include(s) point up or sideways")
        return 1
    print(f"layering: {checked} files, {edges} includes between layer folders, all pointing down")
    return 0


if __name__ == "__main__":
    sys.exit(main())
