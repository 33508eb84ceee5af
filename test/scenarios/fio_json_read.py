#!/usr/bin/env python3
"""Reads a fio --output-format=json file the way fio-json scripts do (fio's keys only) and
prints one line per job: name, group, and per direction total_ios, io_bytes, iops, bw (KiB/s),
runtime (ms), mean lat_ns and clat_ns p99; then sync's total_ios. Exits non-zero when a key is
missing or has the wrong type. usage: fio_json_read.py FILE"""
import json
import sys


def need(d, key, kind):
    if key not in d:
        sys.exit(f"missing key {key!r}")
    if not isinstance(d[key], kind):
        sys.exit(f"{key!r}: expected {kind}, got {type(d[key]).__name__}")
    return d[key]


def main(path):
    doc = json.load(open(path))
    need(doc, "fio version", str)
    for job in need(doc, "jobs", list):
        fields = [need(job, "jobname", str), str(need(job, "groupid", int))]
        for ddir in ("read", "write", "trim"):
            d = need(job, ddir, dict)
            ios = need(d, "total_ios", int)
            for key in ("io_bytes", "io_kbytes", "bw_bytes", "bw", "runtime"):
                need(d, key, int)
            iops = need(d, "iops", (int, float))
            lat = need(d, "lat_ns", dict)
            clat = need(d, "clat_ns", dict)
            need(d, "slat_ns", dict)
            for h in (lat, clat):
                for key in ("min", "max", "N"):
                    need(h, key, int)
                for key in ("mean", "stddev"):
                    need(h, key, (int, float))
            p99 = need(clat, "percentile", dict)["99.000000"] if clat["N"] else 0
            fields.append(f"{ddir}:{ios}:{d['io_bytes']}:{iops:.3f}:{d['bw']}:{d['runtime']}:{lat['mean']:.1f}:{p99}")
        fields.append(f"sync:{need(need(job, 'sync', dict), 'total_ios', int)}")
        print(" ".join(fields))


if __name__ == "__main__":
    main(sys.argv[1])
