"""The ir3 program container: code plus everything a compute dispatch needs.

A `Program` holds
  code            the instruction words (little-endian, 8 bytes each)
  gpu             gpu_id the code was assembled for (630)
  localsize       (x, y, z) workgroup size                              @localsize X, Y, Z
  bufs            [Buf(size_dwords, addr_const, init)]: buffer N is g[N] / IBO N; its 64-bit
                  GPU address goes to the const vec2 at addr_const (regid, cN.c = 4*N + c)
                  when given; init: its first dwords        @buf SIZE (cN.c) v0, v1, ...
  consts          [(regid, (w0, w1, w2, w3))]: 32-bit words the driver uploads at cN.c
                                                                        @const(cN.c) a, b, c, d
  invocationid    regid where the local invocation id (vec3) arrives    @invocationid(rN.c)
  wgid            regid of the workgroup id (vec3, r48.x and up)        @wgid(rN.c)
  numwg           const regid of the workgroup count (vec3)             @numwg(cN.c)
  branchstack     branch stack depth                                    @branchstack N
  pvtmem          private memory per fiber, bytes (as mesa reads it)    @pvtmem BYTES
  localmem        shared (local) memory per workgroup, bytes            @localmem BYTES
  earlypreamble   the program may use the early preamble                @earlypreamble
  args            [Arg(regid, type, name)]: a scalar kernel argument the driver writes to the
                  const cN.c (u32, s32 and f32 take one word, u64 two)   @arg(cN.c) TYPE [NAME]
  params          the kernel's parameters in header order: ("buf", i) and ("arg", j), which is
                  the order a driver takes call arguments in
  threadsize      fibers per wave the program is written for, 64 or 128 @threadsize N
  full_regs, half_regs   register footprint in vec4 units (highest rN / hrN named, + 1, not
                  counting the shared registers r48-r55 and a0/p0), what SP_CS_CTRL_REG0's
                  FULLREGFOOTPRINT / HALFREGFOOTPRINT take
  constlen        const vec4s the program reads (highest cN named or written by a header, + 1)
  instrlen        code size in 128-byte units (SP_CS_INSTRLEN)

The headers are those of mesa's computerator (src/freedreno/computerator/README.rst), plus
@arg and @threadsize, which computerator does not have (it takes no scalar arguments and
always runs wave64).

On disk (`write()` / `read()`): b"IR3P", u32 version (1), u32 metadata length, the metadata as
UTF-8 JSON (every field above except code), then the code; `read()` checks each part and names
what is wrong.
"""
import json
import re
import struct

from assembler.errors import AssemblerError, MalformedInput

MAGIC = b"IR3P"
VERSION = 1
_COMP = "xyzw"


ARG_TYPES = {"u32": 1, "s32": 1, "f32": 1, "u64": 2}


class Arg:
    __slots__ = ("regid", "type", "name")

    def __init__(self, regid, type_, name=None):
        self.regid, self.type, self.name = regid, type_, name

    @property
    def words(self):
        return ARG_TYPES[self.type]

    def __eq__(self, other):
        return isinstance(other, Arg) and (self.regid, self.type, self.name) == (other.regid, other.type, other.name)

    def __repr__(self):
        return "Arg(%s %s at %s)" % (self.type, self.name or "", regname("c", self.regid))


class Buf:
    __slots__ = ("size", "addr_const", "init")

    def __init__(self, size, addr_const=None, init=()):
        self.size, self.addr_const, self.init = size, addr_const, tuple(init)

    def __eq__(self, other):
        return isinstance(other, Buf) and (self.size, self.addr_const, self.init) == (
            other.size, other.addr_const, other.init)

    def __repr__(self):
        return "Buf(%d dwords%s)" % (self.size, "" if self.addr_const is None else
                                     ", address at %s" % regname("c", self.addr_const))


def regname(file, regid):
    return "%s%d.%s" % (file, regid >> 2, _COMP[regid & 3])


def _regid(text, file):
    m = re.fullmatch(r"\s*%s(\d+)\.([xyzw])\s*" % file, text)
    if not m:
        raise AssemblerError("expected a %s register like %s0.x, got %r"
                             % ("const" if file == "c" else "general", file, text.strip()))
    return int(m.group(1)) * 4 + _COMP.index(m.group(2))


def _word(text):
    t = text.strip()
    try:
        if re.fullmatch(r"[-+]?(0[xX][0-9a-fA-F]+|\d+)", t):
            return int(t, 0) & 0xffffffff
        return struct.unpack("<I", struct.pack("<f", float(t)))[0]
    except (ValueError, OverflowError):
        raise AssemblerError("bad constant value %r" % t) from None


def _ints(text, n, what):
    parts = [p.strip() for p in text.split(",")]
    if len(parts) != n or not all(re.fullmatch(r"\d+", p) for p in parts):
        raise AssemblerError("%s takes %d non-negative integer%s, got %r"
                             % (what, n, "s" if n > 1 else "", text.strip()))
    return [int(p) for p in parts]


class Program:
    def __init__(self, gpu=630):
        self.gpu = gpu
        self.code = b""
        self.labels = {}
        self.lines = []
        self.localsize = (1, 1, 1)
        self.bufs = []
        self.consts = []
        self.invocationid = None
        self.wgid = None
        self.numwg = None
        self.branchstack = 0
        self.pvtmem = 0
        self.localmem = 0
        self.earlypreamble = False
        self.args = []
        self.params = []
        self.threadsize = 64

    def __repr__(self):
        return "Program(%d instructions, localsize %s, %d bufs)" % (len(self.code) // 8,
                                                                  self.localsize, len(self.bufs))

    @property
    def instructions(self):
        return len(self.code) // 8

    @property
    def instrlen(self):
        return (len(self.code) + 127) // 128

    def footprint(self):
        """(full_regs, half_regs, constlen): vec4 counts the code and headers name."""
        from .decoder import disassemble
        full = half = const = 0
        for line in disassemble(self.code, self.gpu):
            for m in re.finditer(r"(?<![a-z<])(h?)([rc])(\d+)\.[xyzw]", line):
                n = int(m.group(3)) + 1
                if m.group(2) == "c":
                    const = max(const, n)
                elif 48 < n <= 56:          # shared registers r48-r55 are per wave, outside the footprint
                    continue
                elif m.group(1):
                    half = max(half, n)
                else:
                    full = max(full, n)
        for reg in (self.invocationid, self.wgid):
            if reg is not None and not 48 * 4 <= reg < 56 * 4:
                full = max(full, (reg + 2) // 4 + 1)
        for reg, n in ([(r, len(w)) for r, w in self.consts] + [(b.addr_const, 2) for b in self.bufs]
                       + [(self.numwg, 3)] + [(a.regid, a.words) for a in self.args]):
            if reg is not None:
                const = max(const, (reg + n - 1) // 4 + 1)
        return full, half, const

    @property
    def full_regs(self):
        return self.footprint()[0]

    @property
    def half_regs(self):
        return self.footprint()[1]

    @property
    def constlen(self):
        return self.footprint()[2]

    def const_image(self):
        """The const file contents the headers ask for: {regid: 32-bit word} (buffer addresses
        are the driver's to fill in)."""
        out = {}
        for reg, words in self.consts:
            for i, w in enumerate(words):
                out[reg + i] = w
        return out

    # -- container

    def metadata(self):
        full, half, const = self.footprint()
        return {"gpu": self.gpu, "localsize": list(self.localsize),
                "bufs": [{"size": b.size, "addr_const": b.addr_const, "init": list(b.init)}
                         for b in self.bufs],
                "consts": [[r, list(w)] for r, w in self.consts],
                "invocationid": self.invocationid, "wgid": self.wgid, "numwg": self.numwg,
                "branchstack": self.branchstack, "pvtmem": self.pvtmem, "localmem": self.localmem,
                "earlypreamble": self.earlypreamble, "full_regs": full, "half_regs": half,
                "args": [[a.regid, a.type, a.name] for a in self.args],
                "params": [list(p) for p in self.params], "threadsize": self.threadsize,
                "constlen": const, "instrlen": self.instrlen, "labels": self.labels}

    def write(self):
        meta = json.dumps(self.metadata(), sort_keys=True).encode()
        return MAGIC + struct.pack("<II", VERSION, len(meta)) + meta + self.code

    @classmethod
    def read(cls, data, path="<program>"):
        if len(data) < 12 or data[:4] != MAGIC:
            raise MalformedInput(path, 0, "not an ir3 program container (no IR3P magic)")
        version, mlen = struct.unpack_from("<II", data, 4)
        if version != VERSION:
            raise MalformedInput(path, 0, "container version %d, this reader knows %d" % (version, VERSION))
        if 12 + mlen > len(data):
            raise MalformedInput(path, 0, "metadata of %d bytes runs past the end (%d bytes)"
                                 % (mlen, len(data)))
        try:
            meta = json.loads(data[12:12 + mlen].decode())
        except (UnicodeDecodeError, ValueError) as e:
            raise MalformedInput(path, 0, "metadata is not JSON: %s" % e) from None
        code = data[12 + mlen:]
        if len(code) % 8:
            raise MalformedInput(path, 0, "code is %d bytes, not a multiple of 8" % len(code))
        p = cls(meta.get("gpu", 630))
        p.code = bytes(code)
        try:
            p.localsize = tuple(meta["localsize"])
            p.bufs = [Buf(b["size"], b["addr_const"], b.get("init", ())) for b in meta["bufs"]]
            p.consts = [(r, tuple(w)) for r, w in meta["consts"]]
            for k in ("invocationid", "wgid", "numwg", "branchstack", "pvtmem", "localmem",
                      "earlypreamble", "labels"):
                setattr(p, k, meta[k])
            # absent from containers written before scalar arguments existed
            p.args = [Arg(r, t, n) for r, t, n in meta.get("args", [])]
            p.params = [tuple(x) for x in meta.get("params", [("buf", i) for i in range(len(p.bufs))])]
            p.threadsize = meta.get("threadsize", 64)
        except (KeyError, TypeError, ValueError) as e:
            raise MalformedInput(path, 0, "metadata field missing or malformed: %s" % e) from None
        if len(p.localsize) != 3 or not all(isinstance(v, int) and v > 0 for v in p.localsize):
            raise MalformedInput(path, 0, "localsize must be three positive integers, got %r"
                                 % (p.localsize,))
        return p


def parse_header(prog, line):
    """Apply one @header line (computerator's syntax) to `prog`."""
    m = re.match(r"@([a-z]+)\s*(.*)$", line)
    if not m:
        raise AssemblerError("bad header %r" % line)
    name, rest = m.groups()
    if name == "localsize":
        x, y, z = _ints(rest, 3, "@localsize")
        if min(x, y, z) < 1 or x * y * z > 1024:
            raise AssemblerError("@localsize %d, %d, %d: each must be >= 1 and the product "
                                 "<= 1024" % (x, y, z))
        prog.localsize = (x, y, z)
    elif name == "buf":
        bm = re.fullmatch(r"(\d+)\s*(?:\(\s*(c\d+\.[xyzw])\s*\))?\s*(.*)", rest)
        if not bm:
            raise AssemblerError("@buf takes a size in dwords, an optional (cN.c) and optional "
                                 "initial values, got %r" % rest)
        init = [_word(v) for v in bm.group(3).split(",")] if bm.group(3).strip() else []
        if len(init) > int(bm.group(1)):
            raise AssemblerError("@buf %s has %d initial values" % (bm.group(1), len(init)))
        prog.bufs.append(Buf(int(bm.group(1)), _regid(bm.group(2), "c") if bm.group(2) else None,
                             init))
        prog.params.append(("buf", len(prog.bufs) - 1))
    elif name == "arg":
        am = re.fullmatch(r"\(\s*(c\d+\.[xyzw])\s*\)\s*(\w+)(?:\s+([A-Za-z_]\w*))?\s*", rest)
        if not am or am.group(2) not in ARG_TYPES:
            raise AssemblerError("@arg takes (cN.c), a type (%s) and an optional name, got %r"
                                 % (", ".join(ARG_TYPES), rest))
        reg = _regid(am.group(1), "c")
        if am.group(2) == "u64" and reg % 2:
            raise AssemblerError("@arg u64 needs an even const component (cN.x or cN.z), got %s"
                                 % am.group(1))
        prog.args.append(Arg(reg, am.group(2), am.group(3)))
        prog.params.append(("arg", len(prog.args) - 1))
    elif name == "threadsize":
        n = _ints(rest, 1, "@threadsize")[0]
        if n not in (64, 128):
            raise AssemblerError("@threadsize must be 64 or 128 (a6xx waves), got %d" % n)
        prog.threadsize = n
    elif name == "const":
        cm = re.fullmatch(r"\(\s*(c\d+\.[xyzw])\s*\)\s*(.*)", rest)
        if not cm:
            raise AssemblerError("@const takes (cN.c) then up to four values, got %r" % rest)
        vals = [v for v in cm.group(2).split(",") if v.strip()]
        if not 1 <= len(vals) <= 4:
            raise AssemblerError("@const takes one to four values, got %d" % len(vals))
        prog.consts.append((_regid(cm.group(1), "c"), tuple(_word(v) for v in vals)))
    elif name in ("invocationid", "wgid", "numwg"):
        rm = re.fullmatch(r"\(\s*([a-z]\d+\.[xyzw])\s*\)\s*", rest)
        if not rm:
            raise AssemblerError("@%s takes one register in parentheses, got %r" % (name, rest))
        reg = _regid(rm.group(1), "c" if name == "numwg" else "r")
        if name == "wgid" and reg < 48 * 4:
            raise AssemblerError("@wgid must name a high register (r48.x and up), got %s" % rm.group(1))
        setattr(prog, name, reg)
    elif name in ("branchstack", "localmem"):
        setattr(prog, name, _ints(rest, 1, "@" + name)[0])
    elif name == "pvtmem":
        prog.pvtmem = _ints(rest, 1, "@pvtmem")[0]
    elif name == "earlypreamble":
        prog.earlypreamble = True
    elif name in ("fullnopstart", "fullnopend", "fullsyncstart", "fullsyncend"):
        raise AssemblerError("@%s (mesa's debugging aid) is not supported" % name)
    elif name in ("in", "out", "tex"):
        raise AssemblerError("@%s describes a graphics shader; only compute programs are supported"
                             % name)
    else:
        raise AssemblerError("unknown header @%s" % name)
