#!/usr/bin/env python3
"""perf_pipe.py SRC MODE N: a pipe-mode perf.data stream on stdout, for
hardening.sh (issue 32's reproductions 02, 03, 23).

  normal    SRC's header records, then its samples replayed N times, each
            replay later in time, a FINISHED_ROUND after each
  noround   the same without any FINISHED_ROUND
  aux       SRC's header records, then an AUXTRACE record claiming 2^62
            bytes after it (N unused)
  ids       N HEADER_ATTR records of a tracepoint, each with 8183 distinct
            sample ids (the most a 64 KiB record holds), nothing else

SRC is a pipe-mode perf.data (testdata/perf/pipemode.data).
"""
import struct
import sys

src, mode, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
out = sys.stdout.buffer
REC_SAMPLE, REC_TRACING_DATA, REC_FINISHED_ROUND, REC_AUXTRACE = 9, 66, 68, 71

if mode == "ids":
    out.write(b"PERFILE2" + struct.pack("<Q", 16))
    attr = bytearray(128)
    struct.pack_into("<II", attr, 0, 2, 128)       # a tracepoint, 128 bytes
    struct.pack_into("<Q", attr, 24, 0x10587)      # perf sched record's sample_type
    nid = (0xfff8 - 8 - 128) // 8
    for a in range(n):
        ids = struct.pack("<%dQ" % nid, *range(1 + a * nid, 1 + (a + 1) * nid))
        out.write(struct.pack("<IHH", 64, 0, 8 + 128 + 8 * nid) + attr + ids)
    sys.exit(0)

b = open(src, "rb").read()
pos, hdr, samples = 16, [], []
while pos + 8 <= len(b):
    t, _, sz = struct.unpack_from("<IHH", b, pos)
    extra = struct.unpack_from("<I", b, pos + 8)[0] if t == REC_TRACING_DATA else 0
    rec = b[pos:pos + sz + extra]
    if t == REC_SAMPLE:
        samples.append(bytes(rec))
    elif t >= 64 and t != REC_FINISHED_ROUND:
        hdr.append(rec)
    pos += sz + extra
out.write(b[:16])
for r in hdr:
    out.write(r)
if mode == "aux":
    out.write(struct.pack("<IHHQQQIIII", REC_AUXTRACE, 0, 48, 1 << 62, 0, 0, 0, 0, 0, 0))
    sys.exit(0)
# sample_type 0x10587 (id ip tid time cpu period raw): the time at byte 32
TIME = 32
t0 = struct.unpack_from("<Q", samples[0], TIME)[0]
t1 = struct.unpack_from("<Q", samples[-1], TIME)[0]
span = max(t1 - t0, 0) + 10**9
rnd = struct.pack("<IHH", REC_FINISHED_ROUND, 0, 8)
for i in range(n):
    chunk = bytearray()
    for s in samples:
        s = bytearray(s)
        struct.pack_into("<Q", s, TIME, struct.unpack_from("<Q", s, TIME)[0] + i * span)
        chunk += s
    out.write(chunk)
    if mode != "noround":
        out.write(rnd)
