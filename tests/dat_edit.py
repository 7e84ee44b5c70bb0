#!/usr/bin/env python3
"""dat_edit.py - look at and edit the ring-buffer pages of a trace.dat, for tests.

Finds each CPU's data with `$SCHEDLINT dump --layout FILE`, then works on the
pages of an uncompressed file (v6, or v7 without compression) or on the
chunks of a compressed one.

  dat_edit.py stats FILE
      pages, data events, time extends, absolute time stamps, paddings and
      pages flagged with lost events, over all CPUs: "pages=N events=N ..."
  dat_edit.py edit FILE OUT KIND
      copy FILE to OUT with one page (or chunk) changed:
        commit        a page's commit size larger than the page
        overrun       a page's last event made longer than the commit
        big-length    a large event (type_len 0) whose length is below its header
        padding-loop  a padding event of length -4 (kbuffer would loop for ever)
        lost-room     lost events flagged "stored" with no room for the count
        lost          (valid) a page flagged with 1234 lost events before it
        extends       (valid) on every page with room, the delta of the middle
                      event moved into a time extend before it: the same
                      timestamps, as the kernel writes a delta too large
        timestamps    (valid) the same with an absolute time stamp entry
        extend-lost   (valid) a page flagged with 77 lost events that starts
                      with a time extend
        lost-mixed    (valid) a page flagged with 1234 lost events before it
                      and a later page of that CPU flagged with lost events
                      but not their count (no room was left to store it)
        seek-stamps   (valid) every page of the busiest CPU with room starts
                      with an absolute time stamp of its first event's
                      time, and its header time is 0: the same events at the
                      same times, but a header time a seek must not trust
        empty-tail    (valid) the busiest CPU's last third of pages are
                      zeros (empty pages, header time 0): their events are
                      gone, and a seek must not stop among them
        chunk-data    (compressed) garbage in the middle of a chunk
        chunk-size    (compressed) a chunk whose size runs past the CPU's data
        count-huge    (compressed) the CPU's chunk count 0xffffffff
        count-short   (compressed) the CPU's chunk count 1 (it has more)
        count-zero    (compressed) the CPU's chunk count 0
        count-long    (compressed) the CPU's chunk count one more than it has
      Pages are taken from the middle of the CPU with the most data.
  dat_edit.py sections FILE
      the sections of a v7 file as they tile it, one "OFFSET ID SIZE" line
      each (OFFSET of the 16-byte section header), read here without
      schedlint
"""
import os
import shutil
import struct
import subprocess
import sys

RB_PADDING, RB_TIME_EXTEND, RB_TIME_STAMP = 29, 30, 31
MISSED_EVENTS, MISSED_STORED = 1 << 31, 1 << 30
COMMIT_MASK = (1 << 27) - 1


def layout(path):
    schedlint = os.environ.get("SCHEDLINT", "./schedlint")
    out = subprocess.run([schedlint, "dump", "--layout", path], check=True,
                         capture_output=True, text=True).stdout
    info, cpus = {}, []
    for line in out.splitlines():
        words = line.split()
        if words[0] == "cpu":
            cpus.append({"cpu": int(words[1]), "offset": int(words[3]),
                         "size": int(words[5]), "kind": words[6]})
        else:
            info[words[0]] = words[1]
    return info, cpus


class Pages:
    """The ring-buffer pages of an uncompressed trace.dat."""

    def __init__(self, path):
        self.info, self.cpus = layout(path)
        if self.cpus and self.cpus[0]["kind"] != "pages":
            raise SystemExit("dat_edit.py: compressed CPU data: pages cannot be edited")
        self.data = bytearray(open(path, "rb").read())
        self.end = ">" if self.info["endian"] == "big" else "<"
        self.page_size = int(self.info["subbuf_size"])
        # the commit word is a kernel long; traces here have the same as user space
        self.long = int(self.info["long_size"])
        self.hdr = 8 + self.long

    def u32(self, off):
        return struct.unpack_from(self.end + "I", self.data, off)[0]

    def put32(self, off, v):
        struct.pack_into(self.end + "I", self.data, off, v & 0xffffffff)

    def commit_word(self, page):
        fmt = self.end + ("Q" if self.long == 8 else "I")
        return struct.unpack_from(fmt, self.data, page + 8)[0]

    def put_commit(self, page, v):
        fmt = self.end + ("Q" if self.long == 8 else "I")
        struct.pack_into(fmt, self.data, page + 8, v)

    def put_long(self, off, v):
        fmt = self.end + ("Q" if self.long == 8 else "I")
        struct.pack_into(fmt, self.data, off, v)

    def type_len(self, word):
        return word >> 27 if self.end == ">" else word & 31

    def make_word(self, type_len, delta):
        return (type_len << 27 | delta) if self.end == ">" else (delta << 5 | type_len)

    def pages(self, cpu):
        for off in range(cpu["offset"], cpu["offset"] + cpu["size"], self.page_size):
            yield off

    def events(self, page):
        """(offset in page data, type_len, total bytes) of each entry."""
        commit = self.commit_word(page) & COMMIT_MASK
        data, pos = page + self.hdr, 0
        while pos < commit:
            tl = self.type_len(self.u32(data + pos))
            if tl == RB_PADDING:
                size = 4 + self.u32(data + pos + 4)
            elif tl in (RB_TIME_EXTEND, RB_TIME_STAMP):
                size = 8
            elif tl == 0:
                size = 8 + ((self.u32(data + pos + 4) - 4 + 3) & ~3)
            else:
                size = 4 + 4 * tl
            yield pos, tl, size
            pos += size

    def busiest(self):
        return max(self.cpus, key=lambda c: c["size"])

    def pick_page(self, want=lambda page: True):
        """A page from the middle of the busiest CPU that satisfies want."""
        pages = list(self.pages(self.busiest()))
        for page in pages[len(pages) // 2:] + pages[:len(pages) // 2]:
            if (self.commit_word(page) & COMMIT_MASK) and want(page):
                return page
        raise SystemExit("dat_edit.py: no page to edit")

    def slack(self, page):
        return self.page_size - self.hdr - (self.commit_word(page) & COMMIT_MASK)


def stats(path):
    p = Pages(path)
    n = {"pages": 0, "events": 0, "extends": 0, "timestamps": 0, "paddings": 0,
         "lost_pages": 0}
    for cpu in p.cpus:
        for page in p.pages(cpu):
            n["pages"] += 1
            if p.commit_word(page) & MISSED_EVENTS:
                n["lost_pages"] += 1
            for _, tl, _ in p.events(page):
                key = {RB_PADDING: "paddings", RB_TIME_EXTEND: "extends",
                       RB_TIME_STAMP: "timestamps"}.get(tl, "events")
                n[key] += 1
    print(" ".join(f"{k}={v}" for k, v in n.items()))


def delta_of(p, word):
    return word & ((1 << 27) - 1) if p.end == ">" else word >> 5


def insert_time(p, page, absolute):
    """Move the middle data event's delta into a time extend (or stamp) before it."""
    commit = p.commit_word(page) & COMMIT_MASK
    data = page + p.hdr
    ts = struct.unpack_from(p.end + "Q", p.data, page)[0]
    entries = []
    for pos, tl, size in p.events(page):
        word = p.u32(data + pos)
        if tl == RB_TIME_STAMP:
            return False		# keep it simple: pages with absolute stamps stay
        if tl == RB_TIME_EXTEND:
            ts += delta_of(p, word) | p.u32(data + pos + 4) << 27
        elif tl != RB_PADDING or delta_of(p, word):
            ts += delta_of(p, word)
        entries.append((pos, tl, ts))
    data_events = [e for e in entries if 0 <= e[1] < RB_PADDING]
    if not data_events:
        return False
    pos, tl, ts = data_events[len(data_events) // 2]
    word = p.u32(data + pos)
    delta = delta_of(p, word)
    if absolute:
        value = ts			# TIME_STAMP: the absolute time, low 59 bits
        head = p.make_word(RB_TIME_STAMP, value & ((1 << 27) - 1))
        array0 = (value >> 27) & 0xffffffff
    else:
        head = p.make_word(RB_TIME_EXTEND, delta & ((1 << 27) - 1))
        array0 = delta >> 27
    p.data[data + pos + 8:data + commit + 8] = p.data[data + pos:data + commit]
    p.put32(data + pos, head)
    p.put32(data + pos + 4, array0)
    p.put32(data + pos + 8, p.make_word(tl, 0))
    p.put_commit(page, (p.commit_word(page) & ~COMMIT_MASK) + commit + 8)
    return True


def stamp_first(p, page):
    """Start the page with an absolute time stamp of its first event; header time 0."""
    commit = p.commit_word(page) & COMMIT_MASK
    data = page + p.hdr
    first = next(p.events(page), None)
    if first is None or not 0 <= first[1] < RB_PADDING:
        return False
    word = p.u32(data)
    value = struct.unpack_from(p.end + "Q", p.data, page)[0] + delta_of(p, word)
    p.data[data + 8:data + commit + 8] = p.data[data:data + commit]
    p.put32(data, p.make_word(RB_TIME_STAMP, value & ((1 << 27) - 1)))
    p.put32(data + 4, (value >> 27) & 0xffffffff)
    p.put32(data + 8, p.make_word(first[1], 0))
    p.put_commit(page, (p.commit_word(page) & ~COMMIT_MASK) + commit + 8)
    struct.pack_into(p.end + "Q", p.data, page, 0)
    return True


def edit_pages(p, kind):
    if kind == "commit":
        page = p.pick_page()
        p.put_commit(page, p.page_size)
    elif kind == "overrun":
        page = p.pick_page()
        last = [e for e in p.events(page) if 0 < e[1] < RB_PADDING][-1]
        off = page + p.hdr + last[0]
        word = p.u32(off)
        delta = word >> 5 if p.end == "<" else word & ((1 << 27) - 1)
        p.put32(off, p.make_word(28, delta))
        # the commit ends right after the original event: 28 words run past it
        p.put_commit(page, last[0] + last[2])
    elif kind == "big-length":
        page = p.pick_page()
        first = next(e for e in p.events(page) if 0 < e[1] < RB_PADDING)
        off = page + p.hdr + first[0]
        p.put32(off, p.make_word(0, 0))
        p.put32(off + 4, 2)
    elif kind == "padding-loop":
        page = p.pick_page()
        first = next(e for e in p.events(page) if 0 < e[1] < RB_PADDING)
        off = page + p.hdr + first[0]
        p.put32(off, p.make_word(RB_PADDING, 1))
        p.put32(off + 4, -4)
    elif kind == "lost-room":
        page = p.pick_page()
        room = p.page_size - p.hdr
        p.put_commit(page, (room - 2) | MISSED_EVENTS | MISSED_STORED)
    elif kind == "lost":
        page = p.pick_page(lambda pg: p.slack(pg) >= p.long)
        commit = p.commit_word(page) & COMMIT_MASK
        p.put_long(page + p.hdr + commit, 1234)
        p.put_commit(page, commit | MISSED_EVENTS | MISSED_STORED)
    elif kind == "lost-mixed":
        page = p.pick_page(lambda pg: p.slack(pg) >= p.long)
        commit = p.commit_word(page) & COMMIT_MASK
        p.put_long(page + p.hdr + commit, 1234)
        p.put_commit(page, commit | MISSED_EVENTS | MISSED_STORED)
        pages = list(p.pages(p.busiest()))
        later = next(pg for pg in pages[pages.index(page) + 2:]
                     if p.commit_word(pg) & COMMIT_MASK)
        p.put_commit(later, p.commit_word(later) | MISSED_EVENTS)
    elif kind in ("extends", "timestamps"):
        done = 0
        for cpu in p.cpus:
            for page in p.pages(cpu):
                if p.slack(page) >= 8 and insert_time(p, page, kind == "timestamps"):
                    done += 1
        if not done:
            raise SystemExit("dat_edit.py: no page with room for a time extend")
    elif kind == "extend-lost":
        page = p.pick_page(lambda pg: p.slack(pg) >= 8 + p.long)
        commit = p.commit_word(page) & COMMIT_MASK
        data = page + p.hdr
        p.data[data + 8:data + 8 + commit] = p.data[data:data + commit]
        p.put32(data, p.make_word(RB_TIME_EXTEND, 0))
        p.put32(data + 4, 0)
        commit += 8
        p.put_long(data + commit, 77)
        p.put_commit(page, commit | MISSED_EVENTS | MISSED_STORED)
    elif kind == "seek-stamps":
        done = 0
        for page in p.pages(p.busiest()):
            if p.slack(page) >= 8 and stamp_first(p, page):
                done += 1
        if not done:
            raise SystemExit("dat_edit.py: no page with room for a time stamp")
    elif kind == "empty-tail":
        pages = list(p.pages(p.busiest()))
        for page in pages[len(pages) - len(pages) // 3:]:
            p.data[page:page + p.page_size] = bytes(p.page_size)
    else:
        raise SystemExit(f"dat_edit.py: unknown edit {kind}")


def edit_chunks(path, out, kind):
    info, cpus = layout(path)
    end = ">" if info["endian"] == "big" else "<"
    data = bytearray(open(path, "rb").read())
    cpu = max(cpus, key=lambda c: c["size"])
    count = struct.unpack_from(end + "I", data, cpu["offset"])[0]
    pos = cpu["offset"] + 4
    for _ in range(count // 2):		# the middle chunk
        pos += 8 + struct.unpack_from(end + "I", data, pos)[0]
    csize = struct.unpack_from(end + "I", data, pos)[0]
    if kind == "chunk-data":
        mid = pos + 8 + csize // 2
        data[mid:mid + 16] = b"\xa5" * 16
    elif kind == "chunk-size":
        struct.pack_into(end + "I", data, pos, cpu["size"] * 2)
    elif kind.startswith("count-"):
        new = {"count-huge": 0xffffffff, "count-short": 1, "count-zero": 0,
               "count-long": count + 1}[kind]
        assert count > 1, "the CPU needs more than one chunk"
        struct.pack_into(end + "I", data, cpu["offset"], new)
    else:
        raise SystemExit(f"dat_edit.py: {kind} needs an uncompressed file")
    open(out, "wb").write(data)


def sections(path):
    data = open(path, "rb").read()
    if data[3:10] != b"tracing" or data[10:12] != b"7\0":
        raise SystemExit(f"dat_edit.py: {path} is not a trace.dat v7")
    end = ">" if data[12] else "<"
    pos = 12 + 1 + 1 + 4          # version, endian, long size, page size
    for _ in range(2):            # compression name and version
        pos = data.index(b"\0", pos) + 1
    pos += 8                      # offset of the first options section
    while pos < len(data):
        sid, _flags, _desc, size = struct.unpack_from(end + "HHIQ", data, pos)
        print(pos, sid, size)
        pos += 16 + size


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "stats":
        stats(sys.argv[2])
    elif len(sys.argv) == 3 and sys.argv[1] == "sections":
        sections(sys.argv[2])
    elif len(sys.argv) == 5 and sys.argv[1] == "edit":
        path, out, kind = sys.argv[2:]
        if kind.startswith("chunk-") or kind.startswith("count-"):
            edit_chunks(path, out, kind)
            return
        p = Pages(path)
        edit_pages(p, kind)
        open(out, "wb").write(p.data)
    else:
        print(__doc__, file=sys.stderr)
        sys.exit(2)


if __name__ == "__main__":
    main()
