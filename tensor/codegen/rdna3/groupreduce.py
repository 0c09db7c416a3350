"""A workgroup's partial results combined across lanes: DPP inside waves, LDS between them.

The loop-level IR expresses a grouped reduction's last step as: every work-item stores its
partial result to local memory, a barrier, then every work-item loops over all the partials
(``group`` in :mod:`tensor.opt`).  For a float32 or int32 add/max over a whole workgroup of
32 to 1024 lanes the selector recognizes that shape and emits instead:

* inside each wave, a butterfly of ``_dpp`` operations (``quad_perm:[1,0,3,2]``,
  ``quad_perm:[2,3,0,1]``, ``row_half_mirror``, ``row_mirror``) and one
  ``v_permlanex16_b32`` between the two rows of 16 lanes: five steps, every lane ends with
  the wave's result;
* between waves (more than 32 lanes), each wave writes its result to LDS, ``s_barrier``, and
  every lane reads all of them (``ds_load_b128``) and combines them.

Float max keeps NaN: a wave that saw one makes its result NaN, and the final combine is
NaN-propagating.  Results are the same values (the additions happen in another order, as
the reference backend's do).
"""
from tensor.dtypes import dtypes
from tensor.loopir import Op

F32, I32 = dtypes.float32, dtypes.int32
STEPS = ("quad_perm:[1,0,3,2]", "quad_perm:[2,3,0,1]", "row_half_mirror", "row_mirror")
DPP_TAIL = " row_mask:0xf bank_mask:0xf"


class GroupReduceMixin:
    def group_combine(self, i):
        """Select the grouped-reduction shape starting at local STORE ``i``; False if it is
        not that shape (the statements are then selected one by one)."""
        m = self._match_group(i)
        if m is None:
            return False
        lbuf, val_i, out_acc, rop, dt, covered = m
        v = self.vgpr(self.v(val_i), dt)
        lanes = self.launch.lanes
        total = self._wave_all_reduce(v, rop, dt)
        if lanes > 32:
            total = self._across_waves(total, rop, dt, lanes // 32, self.lds_offsets[lbuf])
        from .isel import Val
        self.vals[out_acc] = Val(dt, reg=total)
        self.skip.update(covered)
        return True

    def _match_group(self, i):
        ins, f = self.ins, self.f
        st = ins[i]
        if len(st.src) != 3:
            return None
        lbuf, idx, val = st.src
        L = self.launch
        if self.k.local_size != (L.lanes,) or L.lanes % 32 or L.lanes > 1024:
            return None
        if f.linear(idx) != (0, {("tid", 0): 1}):
            return None
        dt = ins[val].dtype
        if dt not in (F32, I32) or len(f.users[lbuf]) != 2:
            return None
        covered, loop, load, acc_upd, out_acc, barrier = [i], None, None, None, None, False
        j = i + 1
        while j < len(ins):
            x = ins[j]
            if x.op is Op.BARRIER and not barrier and loop is None:
                barrier = True
            elif x.op is Op.DEFINE_ACC and out_acc is None and loop is None:
                out_acc = j
            elif x.op is Op.RANGE and x.arg[0] == "reduce" and loop is None and barrier:
                if x.arg[2] != L.lanes:
                    return None
                loop = j
            elif x.op is Op.LOAD and loop is not None and load is None and x.src[0] == lbuf \
                    and len(x.src) == 2:
                if f.linear(x.src[1]) != (L.lanes, {("loop", loop): 1}):
                    return None
                load = j
            elif x.op is Op.ACCUMULATE and load is not None and acc_upd is None:
                if x.src != (out_acc, load) or x.arg not in ("add", "max"):
                    return None
                acc_upd = j
            elif x.op is Op.END and loop is not None and x.src[0] == loop:
                if acc_upd is None:
                    return None
                covered.append(j)
                break
            elif x.op in (Op.CONST, Op.ADD, Op.MUL) and x.dtype is I32:
                pass                             # index arithmetic, selected only if used
            else:
                return None
            covered.append(j)
            j += 1
        else:
            return None
        if ins[out_acc].dtype is not dt:
            return None
        return lbuf, val, out_acc, ins[acc_upd].arg, dt, covered

    def _op(self, rop, dt):
        if dt is F32:
            return "v_add_f32" if rop == "add" else "v_max_f32"
        return "v_add_nc_u32" if rop == "add" else "v_max_i32"

    def _wave_all_reduce(self, v, rop, dt):
        op = self._op(rop, dt)
        nan = None
        if dt is F32 and rop == "max":               # v_max_f32 drops NaNs: note them first
            m = self.new("s")
            self.E("v_cmp_u_f32", m, v, v)
            self.E("s_cmp_lg_u32", m, "0", ndef=0, imp_def=("scc",))
            nan = self.op1("s_cselect_b32", "s", "-1", "0")
        t = v
        for step in STEPS:
            d = self.new("v")
            self.E(op + "_dpp", d, t, t, mods=step + DPP_TAIL)
            t = d
        lo = self.op1("s_mov_b32", "s", "0x76543210")
        u = self.new("v")
        self.E("v_permlanex16_b32", u, t, lo, "0xfedcba98")     # the other row, lane by lane
        w = self.valu(op, [u, t])
        if nan is not None:
            w = self.valu("v_cndmask_b32", [w, "0x7fc00000", nan])
        return w

    def _across_waves(self, total, rop, dt, waves, base):
        tid = self.tid(0)
        t = self.valu("v_lshrrev_b32", ["5", tid])
        addr = self.valu("v_lshl_add_u32", [t, "2", self.iconst(base)])
        mi = self.E("ds_store_b32", addr, total, ndef=0)    # every lane of a wave: one value
        mi.imm, mi.align = 0, 4
        self.E("s_barrier", ndef=0)
        zero = self.zero_vgpr()
        parts = []
        for q in range(0, waves, 4):
            n = min(4, waves - q)
            d = self.new("v", n)
            op = {4: "ds_load_b128", 2: "ds_load_b64", 1: "ds_load_b32"}.get(n, "ds_load_b96")
            mi = self.E(op, d, zero, mods=f"offset:{base + 4 * q}" if base + 4 * q else "")
            mi.imm, mi.align = base + 4 * q, 16
            parts.extend(d[k] if n > 1 else d for k in range(n))
        from .isel import Val
        acc = parts[0]
        for p in parts[1:]:
            if dt is F32 and rop == "max":
                acc = self.fmax(dt, Val(dt, reg=acc), Val(dt, reg=p))
            else:
                acc = self.valu(self._op(rop, dt), [p, acc])
        return acc
