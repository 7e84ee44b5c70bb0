#!/usr/bin/env python3
"""perf_edit.py - make small or broken perf.data files from a real one

    perf_edit.py shrink IN OUT N     keep the first N samples (and every
                                     FINISHED_ROUND and LOST record among
                                     them), drop perf's other records
    perf_edit.py edit IN OUT KIND    break IN one way (KINDS below)
    perf_edit.py rounds IN OUT N/R   IN's samples N times over, each copy
                                     after the one before in time, in
                                     rounds of R copies: a round holds
                                     each CPU's samples of its copies in
                                     time order, one CPU after the other,
                                     as perf record writes its buffers
                                     (R copies of a 1 MiB file: rounds as
                                     large as perf record -m 16M makes)

Read as perf.data-file-format.txt lays the file out: a 104-byte header
(magic, size, attr_size, the attrs, data and event_types sections, 256
feature bits), the attribute table (each attribute followed by the
section of its ids), the data (records of an 8-byte header: type, misc,
size), and after it a table of one (offset, size) per feature bit set.
shrink writes the file anew in that order; pipe-mode input (16-byte
header) keeps its leading header records.  Only little-endian files.
"""
import struct
import sys

FEAT_TRACING_DATA = 1
REC_SAMPLE, REC_LOST, REC_ROUND, REC_LOST_SAMPLES = 9, 2, 68, 13
REC_HEADER_TRACING_DATA = 66


def records(b, pos, end):
    """(offset, type, size, extra) of each record; extra: bytes that follow it"""
    while pos + 8 <= end:
        t, _misc, sz = struct.unpack_from('<IHH', b, pos)
        if sz < 8:
            raise SystemExit('a record of %d bytes at %d' % (sz, pos))
        extra = struct.unpack_from('<I', b, pos + 8)[0] if t == REC_HEADER_TRACING_DATA else 0
        yield pos, t, sz, extra
        pos += sz + extra


def parse(b):
    if b[:8] != b'PERFILE2':
        raise SystemExit('not a little-endian perf.data')
    hsize = struct.unpack_from('<Q', b, 8)[0]
    if hsize == 16:
        return None
    attr_size, a_off, a_size, d_off, d_size = struct.unpack_from('<QQQQQ', b, 16)
    flags = struct.unpack_from('<4Q', b, 72)
    bits = [i for i in range(256) if flags[i // 64] >> (i % 64) & 1]
    table = d_off + d_size
    feats = {}
    for k, bit in enumerate(bits):
        feats[bit] = struct.unpack_from('<QQ', b, table + 16 * k)
    attrs = []
    for at in range(a_off, a_off + a_size, attr_size):
        e = b[at:at + attr_size]
        asize = struct.unpack_from('<I', e, 4)[0] or 64
        ids_off, ids_size = struct.unpack_from('<QQ', e, asize)
        attrs.append((e, asize, b[ids_off:ids_off + ids_size]))
    return dict(attr_size=attr_size, attrs=attrs, d_off=d_off, d_size=d_size,
                flags=flags, bits=bits, feats=feats)


def write(f, data, feats_bits=None, feats_bytes=None):
    """A perf.data of the attributes f['attrs'], data, features {bit: bytes}"""
    out = bytearray(104)
    attr_entries = []
    for e, asize, ids in f['attrs']:
        ids_off = len(out)
        out += ids
        attr_entries.append((e, asize, ids_off, len(ids)))
    a_off = len(out)
    for e, asize, ids_off, ids_size in attr_entries:
        e = bytearray(e)
        struct.pack_into('<QQ', e, asize, ids_off, ids_size)
        out += e
    a_size = len(out) - a_off
    d_off = len(out)
    out += data
    d_size = len(data)
    bits = sorted(feats_bytes)
    table = len(out)
    out += bytes(16 * len(bits))
    for k, bit in enumerate(bits):
        struct.pack_into('<QQ', out, table + 16 * k, len(out), len(feats_bytes[bit]))
        out += feats_bytes[bit]
    flags = [0, 0, 0, 0]
    for bit in bits:
        flags[bit // 64] |= 1 << (bit % 64)
    struct.pack_into('<8s8Q4Q', out, 0, b'PERFILE2', 104, f['attr_size'],
                     a_off, a_size, d_off, d_size, 0, 0, *flags)
    return bytes(out)


def shrink(b, n):
    f = parse(b)
    keep = (REC_SAMPLE, REC_ROUND, REC_LOST, REC_LOST_SAMPLES)
    if f is None:   # pipe mode: keep the header records, then the first n samples
        out = bytearray(b[:16])
        for pos, t, sz, extra in records(b, 16, len(b)):
            if t >= 64 and t != REC_ROUND or (t in keep and n > 0):
                out += b[pos:pos + sz + extra]
                n -= t == REC_SAMPLE
        return bytes(out)
    data = bytearray()
    for pos, t, sz, extra in records(b, f['d_off'], f['d_off'] + f['d_size']):
        if t in keep and n > 0:
            data += b[pos:pos + sz]
            n -= t == REC_SAMPLE
    data += struct.pack('<IHH', REC_ROUND, 0, 8)
    feats = {bit: b[off:off + size] for bit, (off, size) in f['feats'].items()}
    return write(f, data, feats_bytes=feats)


def raw_at(f, pos):
    """Where the tracepoint payload's size word of the sample at pos is:
    after the sample's fixed fields (no READ, no CALLCHAIN), by the first
    attribute's sample_type"""
    st = struct.unpack_from('<Q', f['attrs'][0][0], 24)[0]
    return pos + 8 + 8 * sum(1 for bit in (16, 0, 1, 2, 3, 6, 9, 7, 8) if st >> bit & 1)


def rounds(b, n, per):
    f = parse(b)
    st = struct.unpack_from('<Q', f['attrs'][0][0], 24)[0]
    t_at = 8 + 8 * sum(1 for bit in (16, 0, 1) if st >> bit & 1)
    cpu_at = 8 + 8 * sum(1 for bit in (16, 0, 1, 2, 3, 6, 9) if st >> bit & 1)
    if not (st >> 2 & 1 and st >> 7 & 1):
        raise SystemExit('rounds: the samples need TIME and CPU')
    samples = [bytes(b[pos:pos + sz])
               for pos, t, sz, _ in records(b, f['d_off'], f['d_off'] + f['d_size'])
               if t == REC_SAMPLE]
    times = [struct.unpack_from('<Q', s, t_at)[0] for s in samples]
    span = max(times) - min(times) + 1000
    data = bytearray()
    for first in range(0, n, per):
        by_cpu = {}
        for c in range(first, min(first + per, n)):
            for s, t in zip(samples, times):
                by_cpu.setdefault(struct.unpack_from('<I', s, cpu_at)[0], []).append((t + c * span, s))
        for cpu in sorted(by_cpu):
            for t, s in sorted(by_cpu[cpu], key=lambda x: x[0]):
                rec = bytearray(s)
                struct.pack_into('<Q', rec, t_at, t)
                data += rec
        data += struct.pack('<IHH', REC_ROUND, 0, 8)
    feats = {bit: b[off:off + size] for bit, (off, size) in f['feats'].items()}
    return write(f, bytes(data), feats_bytes=feats)


def edit(b, kind):
    f = parse(b)
    b = bytearray(b)
    samples = [(pos, sz) for pos, t, sz, _ in records(b, f['d_off'], f['d_off'] + f['d_size'])
               if t == REC_SAMPLE]
    if kind == 'truncated-header':
        return bytes(b[:60])
    if kind == 'attrs-past-end':
        struct.pack_into('<Q', b, 32, (len(b) // f['attr_size'] + 10) * f['attr_size'])
        return bytes(b)
    if kind == 'data-past-end':
        struct.pack_into('<Q', b, 48, len(b))
        return bytes(b)
    if kind == 'sample-size-short':
        # the size says 16 bytes: the sample's fields run past it
        pos, sz = samples[len(samples) // 2]
        struct.pack_into('<H', b, pos + 6, 16)
        return bytes(b)
    if kind == 'sample-size-past-end':
        # the last record of the data claims more bytes than are left
        pos, sz = samples[-1]
        end = f['d_off'] + f['d_size']
        struct.pack_into('<H', b, pos + 6, min(0xfff8, end - pos + 64))
        return bytes(b)
    if kind == 'record-size-zero':
        pos, sz = samples[len(samples) // 3]
        struct.pack_into('<H', b, pos + 6, 0)
        return bytes(b)
    if kind in ('raw-size-short-first', 'raw-size-short', 'raw-size-short-last'):
        # the tracepoint payload says 4 bytes: too short for its format
        # (the first sample, one in the middle, one of the last)
        pos, sz = samples[{'raw-size-short-first': 0, 'raw-size-short': len(samples) // 2,
                           'raw-size-short-last': len(samples) - 3}[kind]]
        struct.pack_into('<I', b, raw_at(f, pos), 4)
        return bytes(b)
    if kind == 'raw-size-lies':
        # the tracepoint payload claims more than its sample holds: its
        # size word follows the fixed fields of the sample (no READ, no CALLCHAIN)
        pos, sz = samples[len(samples) // 2]
        at = raw_at(f, pos)
        struct.pack_into('<I', b, at, struct.unpack_from('<I', b, at)[0] + 4096)
        return bytes(b)
    if kind == 'no-tracing-data':
        feats = {bit: bytes(b[off:off + size]) for bit, (off, size) in f['feats'].items()
                 if bit != FEAT_TRACING_DATA}
        return write(f, bytes(b[f['d_off']:f['d_off'] + f['d_size']]), feats_bytes=feats)
    if kind == 'tracing-data-cut':
        feats = {bit: bytes(b[off:off + size]) for bit, (off, size) in f['feats'].items()}
        feats[FEAT_TRACING_DATA] = feats[FEAT_TRACING_DATA][:len(feats[FEAT_TRACING_DATA]) // 2]
        return write(f, bytes(b[f['d_off']:f['d_off'] + f['d_size']]), feats_bytes=feats)
    if kind == 'unfinished':
        # as perf record leaves it while it runs (or when killed): the data
        # size still 0, no feature sections after the data (the bits are set)
        end = f['d_off'] + f['d_size']
        struct.pack_into('<Q', b, 48, 0)
        return bytes(b[:end])
    if kind == 'other-byte-order':
        # the magic as a big-endian machine writes it (the rest left as is)
        b[:8] = b'2ELIFREP'
        return bytes(b)
    if kind == 'ids-over-cap':
        # 520 more copies of the first attribute, all naming one list of
        # 8183 ids: 4.26M in all, over the 4M the reader's table takes,
        # in a file of a few hundred KB (the ids themselves few)
        e, asize, _ids = f['attrs'][0]
        data = bytes(b[f['d_off']:f['d_off'] + f['d_size']])
        feats = {bit: bytes(b[off:off + size]) for bit, (off, size) in f['feats'].items()}
        out = bytearray(write(f, data, feats_bytes=feats))
        ids = b''.join(struct.pack('<Q', (1 << 40) + i) for i in range(8183))
        entries = bytearray()
        for _ in range(520):
            e2 = bytearray(e)
            struct.pack_into('<QQ', e2, asize, 0, len(ids))  # its offset: below
            entries += e2
        # the old attribute table stays where it is; a new one, the old
        # entries then the copies, follows the file, then the shared ids
        a_off, a_size = struct.unpack_from('<QQ', out, 24)
        new_off = len(out)
        out += out[a_off:a_off + a_size] + entries
        list_off = len(out)
        out += ids
        for k in range(520):
            at = new_off + a_size + k * f['attr_size'] + asize
            struct.pack_into('<Q', out, at, list_off)
        struct.pack_into('<QQ', out, 24, new_off, a_size + len(entries))
        return bytes(out)
    if kind == 'unknown-feature':
        # a feature bit perf does not know yet, with its section (8 bytes)
        feats = {bit: bytes(b[off:off + size]) for bit, (off, size) in f['feats'].items()}
        feats[200] = b'\x01' * 8
        return write(f, bytes(b[f['d_off']:f['d_off'] + f['d_size']]), feats_bytes=feats)
    raise SystemExit('unknown kind ' + kind)


def main():
    if len(sys.argv) != 5 or sys.argv[1] not in ('shrink', 'edit', 'rounds'):
        raise SystemExit(__doc__)
    b = open(sys.argv[2], 'rb').read()
    if sys.argv[1] == 'shrink':
        out = shrink(b, int(sys.argv[4]))
    elif sys.argv[1] == 'rounds':
        n, per = (int(x) for x in sys.argv[4].split('/'))
        out = rounds(b, n, per)
    else:
        out = edit(b, sys.argv[4])
    open(sys.argv[3], 'wb').write(out)


if __name__ == '__main__':
    main()
