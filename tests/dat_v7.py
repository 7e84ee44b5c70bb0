#!/usr/bin/env python3
"""dat_v7.py - rewrite a trace.dat v6 as version 7, for tests.

  dat_v7.py IN.dat OUT.dat [--compression zlib|zstd|none] [--chunk-bytes N] [--bomb PAGES]

trace-cmd convert on Debian 12 cannot write zlib, and it cannot convert a
big-endian or 4-byte-long v6 file (it writes in the host's format).  This
writes v7 from any v6 file, in the file's own endianness, following
trace-cmd.dat.v7(5): the metadata sections (compressed when compression is
on), a first options section that points to them and chains to a second
one (compressed when the file is), which holds the BUFFER option of the
flyrecord section written between them.  CPU data is compressed in chunks of N bytes (default ten
pages; give a size that is not a whole number of pages to make pages span
chunks).  The description string of every section is "none" (-1).

--bomb PAGES writes each CPU's data as one chunk of PAGES pages: its first
page, then empty pages (a header with that page's time, nothing committed).
A valid trace whose chunks are large in memory and tiny on disk (zlib: a
thousandth, zstd less), as a reader that holds every CPU's chunk at once
finds out.  zstd compression runs the zstd program (one per block: for
small files).
"""
import struct
import subprocess
import sys
import zlib

OPT_DONE, OPT_BUFFER, OPT_TRACECLOCK, OPT_CPUCOUNT = 0, 3, 4, 8
SECTIONS = (16, 17, 18, 19, 20, 21)	# header info, ftrace, events, kallsyms, printk, cmdlines


class Reader:
    def __init__(self, data):
        self.data, self.pos = data, 0
        self.end = "<"

    def num(self, size):
        fmt = self.end + {2: "H", 4: "I", 8: "Q"}[size]
        v = struct.unpack_from(fmt, self.data, self.pos)[0]
        self.pos += size
        return v

    def take(self, n):
        b = self.data[self.pos:self.pos + n]
        if len(b) != n:
            raise SystemExit("dat_v7.py: truncated input")
        self.pos += n
        return b

    def string(self):
        nul = self.data.index(b"\0", self.pos)
        s = self.data[self.pos:nul]
        self.pos = nul + 1
        return s


def read_v6(path):
    r = Reader(open(path, "rb").read())
    if r.take(10) != b"\x17\x08\x44tracing" or r.string() != b"6":
        raise SystemExit("dat_v7.py: not a trace.dat v6")
    t = {}
    t["endian"], t["long"] = r.take(1), r.take(1)
    r.end = ">" if t["endian"] == b"\1" else "<"
    t["page"] = r.num(4)
    assert r.string() == b"header_page"
    t["header_page"] = r.take(r.num(8))
    assert r.string() == b"header_event"
    t["header_event"] = r.take(r.num(8))
    t["ftrace"] = [r.take(r.num(8)) for _ in range(r.num(4))]
    t["systems"] = []
    for _ in range(r.num(4)):
        name = r.string()
        t["systems"].append((name, [r.take(r.num(8)) for _ in range(r.num(4))]))
    t["kallsyms"] = r.take(r.num(4))
    t["printk"] = r.take(r.num(4))
    t["cmdlines"] = r.take(r.num(8))
    cpus = r.num(4)
    t["options"] = []
    section = r.take(10)
    if section == b"options  \0":
        while True:
            opt = r.num(2)
            if opt == OPT_DONE:
                break
            t["options"].append((opt, r.take(r.num(4))))
        section = r.take(10)
    if section != b"flyrecord\0":
        raise SystemExit("dat_v7.py: no flyrecord section")
    for opt, data in t["options"]:
        if opt == OPT_CPUCOUNT:
            cpus = struct.unpack(r.end + "I", data[:4])[0]
    table = [(r.num(8), r.num(8)) for _ in range(cpus)]
    t["clock"] = b""
    if any(opt == OPT_TRACECLOCK for opt, _ in t["options"]):
        t["clock"] = r.take(r.num(8))
    t["cpus"] = [r.data[off:off + size] for off, size in table]
    t["end"] = r.end
    return t


class Writer:
    def __init__(self, end, compression):
        self.out = bytearray()
        self.end = end
        self.compression = compression

    def num(self, v, size):
        return struct.pack(self.end + {2: "H", 4: "I", 8: "Q"}[size], v)

    def put_num_at(self, pos, v, size):
        self.out[pos:pos + size] = self.num(v, size)

    def compress(self, data):
        if self.compression == "zstd":
            return subprocess.run(["zstd", "-q", "-c", "-19"], input=bytes(data),
                                  capture_output=True, check=True).stdout
        return zlib.compress(data, 9)

    def section(self, sid, body, compress=True):
        """Write a section; returns its offset."""
        offset = len(self.out)
        flags = 1 if compress and self.compression != "none" else 0
        if flags:
            z = self.compress(body)
            body = self.num(len(z), 4) + self.num(len(body), 4) + z
        self.out += self.num(sid, 2) + self.num(flags, 2) + self.num(0xffffffff, 4)
        self.out += self.num(len(body), 8) + body
        return offset

    def options(self, opts, next_offset, compress=True):
        body = b"".join(self.num(o, 2) + self.num(len(d), 4) + d for o, d in opts)
        body += self.num(OPT_DONE, 2) + self.num(8, 4) + self.num(next_offset, 8)
        return self.section(OPT_DONE, body, compress)


def bomb(t, raw, pages):
    """raw's first page, then pages - 1 empty ones at its time: one chunk."""
    page = t["page"]
    first = raw[:page].ljust(page, b"\0")
    empty = first[:8] + b"\0" * (page - 8)
    assert len(empty) == page
    return first + empty * (pages - 1)


def write_v7(t, path, compression, chunk_bytes, bomb_pages=0):
    w = Writer(t["end"], compression)
    n = w.num
    w.out += b"\x17\x08\x44tracing7\0" + t["endian"] + t["long"] + n(t["page"], 4)
    w.out += {"zlib": b"zlib\x001.2.13\0", "zstd": b"zstd\x001.5.4\0",
              "none": b"none\0\0"}[compression]
    options_at = len(w.out)
    w.out += n(0, 8)

    bodies = {
        16: b"header_page\0" + n(len(t["header_page"]), 8) + t["header_page"] +
            b"header_event\0" + n(len(t["header_event"]), 8) + t["header_event"],
        17: n(len(t["ftrace"]), 4) + b"".join(n(len(f), 8) + f for f in t["ftrace"]),
        18: n(len(t["systems"]), 4) + b"".join(
            name + b"\0" + n(len(fmts), 4) + b"".join(n(len(f), 8) + f for f in fmts)
            for name, fmts in t["systems"]),
        19: n(len(t["kallsyms"]), 4) + t["kallsyms"],
        20: n(len(t["printk"]), 4) + t["printk"],
        21: n(len(t["cmdlines"]), 8) + t["cmdlines"],
    }
    offsets = {sid: w.section(sid, bodies[sid]) for sid in SECTIONS}

    # first options section: everything but the buffer; chains to the second.
    # Left uncompressed so that its DONE option can be patched in place.
    opts = [(o, d) for o, d in t["options"] if o not in (OPT_BUFFER, OPT_TRACECLOCK, OPT_CPUCOUNT)]
    opts.append((OPT_CPUCOUNT, n(len(t["cpus"]), 4)))
    if t["clock"]:
        opts.append((OPT_TRACECLOCK, t["clock"].rstrip(b"\0") + b"\0"))
    opts += [(sid, n(off, 8)) for sid, off in offsets.items()]
    first = w.options(opts, 0, compress=False)
    w.put_num_at(options_at, first, 8)
    first_done = len(w.out) - 8		# its DONE option's next-section offset

    # the flyrecord section: header, then each CPU's data from a page boundary
    buffer_at = len(w.out)
    flags = 1 if compression != "none" else 0
    w.out += n(OPT_BUFFER, 2) + n(flags, 2) + n(0xffffffff, 4) + n(0, 8)
    data_start = len(w.out)
    table = []
    for cpu, raw in enumerate(t["cpus"]):
        if not raw:
            continue			# v7 lists only CPUs with data
        w.out += b"\0" * (-len(w.out) % t["page"])
        offset = len(w.out)
        if bomb_pages:
            raw = bomb(t, raw, bomb_pages)
            chunk_bytes = len(raw)
        if compression != "none":
            chunks = [raw[i:i + chunk_bytes] for i in range(0, len(raw), chunk_bytes)]
            w.out += n(len(chunks), 4)
            for c in chunks:
                z = w.compress(c)
                w.out += n(len(z), 4) + n(len(c), 4) + z
            size = len(w.out) - offset - 4	# trace-cmd leaves the count out
        else:
            w.out += raw
            size = len(raw)
        table.append((cpu, offset, size))
    w.put_num_at(data_start - 8, len(w.out) - data_start, 8)

    # second options section (compressed when the file is): the BUFFER option
    clock = t["clock"].split(b"[")[1].split(b"]")[0] if b"[" in t["clock"] else b"local"
    buf = n(buffer_at, 8) + b"\0" + clock + b"\0" + n(t["page"], 4) + n(len(table), 4)
    buf += b"".join(n(cpu, 4) + n(off, 8) + n(size, 8) for cpu, off, size in table)
    second = w.options([(OPT_BUFFER, buf)], 0)
    w.put_num_at(first_done, second, 8)
    open(path, "wb").write(w.out)


def main():
    args = sys.argv[1:]
    compression, chunk_bytes, bomb_pages = "zlib", None, 0
    while len(args) > 2:
        if args[-2] == "--compression":
            compression = args[-1]
        elif args[-2] == "--chunk-bytes":
            chunk_bytes = int(args[-1])
        elif args[-2] == "--bomb":
            bomb_pages = int(args[-1])
        else:
            break
        args = args[:-2]
    if len(args) != 2 or compression not in ("zlib", "zstd", "none"):
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    t = read_v6(args[0])
    write_v7(t, args[1], compression, chunk_bytes or 10 * t["page"], bomb_pages)


if __name__ == "__main__":
    main()
