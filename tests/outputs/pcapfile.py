"""A small reader of the pcap files `dumbbell run --pcap` writes (nanosecond
pcap, raw IPv4), for the tests: headers decoded and checksums verified
without tcpdump, tshark or a pcap library."""

from __future__ import annotations

import struct
from dataclasses import dataclass, field
from pathlib import Path


def csum(data: bytes, acc: int = 0) -> int:
    """The ones'-complement sum of 16-bit big-endian words (unfolded, unnegated)."""
    if len(data) % 2:
        data += b"\0"
    for (w,) in struct.iter_unpack("!H", data):
        acc += w
    while acc >> 16:
        acc = (acc & 0xFFFF) + (acc >> 16)
    return acc


@dataclass
class Record:
    time_ns: int
    ip: bytes
    tos: int = 0
    length: int = 0
    ident: int = 0
    ttl: int = 0
    proto: int = 0
    src: str = ""
    dst: str = ""
    sport: int = 0
    dport: int = 0
    seq: int = 0
    ack: int = 0
    flags: int = 0
    options: dict = field(default_factory=dict)
    payload: int = 0
    icmp_type: int = -1

    @property
    def ecn(self) -> int:
        return self.tos & 3


def _options(opt: bytes) -> dict:
    out, i = {}, 0
    while i < len(opt):
        kind = opt[i]
        if kind == 0:
            break
        if kind == 1:
            out.setdefault("nop", 0)
            out["nop"] += 1
            i += 1
            continue
        ln = opt[i + 1]
        body = opt[i + 2:i + ln]
        if kind == 8:
            out["ts"] = struct.unpack("!II", body)
        elif kind == 5:
            out["sack"] = [struct.unpack("!II", body[k:k + 8]) for k in range(0, len(body), 8)]
        else:
            out[kind] = body
        i += ln
    return out


def read(path: str | Path) -> list[Record]:
    """Every record of the file, checked: the header is the nanosecond raw-IP
    form, each record the datagram (or its first `snaplen` bytes: captured
    length = min(IP total length, snaplen)), the IP checksum right, and the
    TCP, UDP and ICMP checksums of whole datagrams.  AssertionError
    otherwise."""
    data = Path(path).read_bytes()
    magic, vmaj, vmin, _, _, snap, link = struct.unpack("<IHHiIII", data[:24])
    assert magic == 0xA1B23C4D, f"{path}: not a nanosecond pcap (magic {magic:#x})"
    assert (vmaj, vmin, link) == (2, 4, 101), f"{path}: version {vmaj}.{vmin}, link type {link}"
    recs, i = [], 24
    while i < len(data):
        sec, nsec, incl, orig = struct.unpack("<IIII", data[i:i + 16])
        assert incl == min(orig, snap) and nsec < 10**9
        ip = data[i + 16:i + 16 + incl]
        assert len(ip) == incl, f"{path}: record at byte {i} cut short"
        i += 16 + incl
        r = Record(sec * 10**9 + nsec, ip)
        assert ip[0] == 0x45, "IPv4 with a 20-byte header"
        r.tos, r.length, r.ident = ip[1], *struct.unpack("!HH", ip[2:6])
        assert r.length == orig, "IP total length = length on the wire"
        whole = incl == orig
        r.ttl, r.proto = ip[8], ip[9]
        assert csum(ip[:20]) == 0xFFFF, "IP header checksum"
        r.src, r.dst = ".".join(map(str, ip[12:16])), ".".join(map(str, ip[16:20]))
        l4 = ip[20:]
        pseudo = ip[12:20] + bytes([0, r.proto]) + struct.pack("!H", orig - 20)
        if r.proto == 6:
            r.sport, r.dport, r.seq, r.ack, off, r.flags = struct.unpack("!HHIIBB", l4[:14])
            hlen = (off >> 4) * 4
            r.options = _options(l4[20:hlen])
            r.payload = orig - 20 - hlen
            assert not whole or csum(l4, csum(pseudo)) == 0xFFFF, "TCP checksum"
        elif r.proto == 17:
            r.sport, r.dport, ulen, ck = struct.unpack("!HHHH", l4[:8])
            assert ulen == orig - 20
            r.payload = ulen - 8
            assert ck != 0 and (not whole or csum(l4, csum(pseudo)) == 0xFFFF), "UDP checksum"
        elif r.proto == 1:
            r.icmp_type = l4[0]
            r.sport, r.seq = struct.unpack("!HH", l4[4:8])
            r.payload = orig - 28
            assert not whole or csum(l4) == 0xFFFF, "ICMP checksum"
        else:
            raise AssertionError(f"protocol {r.proto}")
        recs.append(r)
    return recs


def node_ip(n: int) -> str:
    """docs/outputs.md's address of node n: 10.0.0.0 + n + 1."""
    a = 0x0A000000 + n + 1
    return ".".join(str((a >> s) & 255) for s in (24, 16, 8, 0))
