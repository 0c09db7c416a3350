; The special function unit: out[8*i + k] = rcp, rsq, sqrt, log2, exp2, sin, cos of x[i] (f32,
; x > 0), and out[8*i + 7] = x; every result needs (ss) before it is used.
@localsize 64, 1, 1
@buf 0 (c2.x)              ; x
@buf 0 (c2.z)              ; out, 8 values per x
@invocationid(r0.x)
@wgid(r48.x)
mov.u32u32 r1.x, c2.x
mov.u32u32 r1.y, c2.y
mov.u32u32 r1.z, c2.z
mov.u32u32 r1.w, c2.w
shl.b r0.y, r48.x, 6
(rpt2)nop
add.u r0.y, r0.y, r0.x
(rpt2)nop
shl.b r0.z, r0.y, 3
(rpt2)nop
add.u r0.w, r0.z, 4
(rpt4)nop
ldg.a.f32 r2.x, g[r1.x+(r0.y<<2)], 1
(sy)rcp r3.x, r2.x
rsq r3.y, r2.x
sqrt r3.z, r2.x
log2 r3.w, r2.x
exp2 r4.x, r2.x
sin r4.y, r2.x
cos r4.z, r2.x
mov.u32u32 r4.w, r2.x
(ss)(rpt5)nop
stg.a.f32 g[r1.z+(r0.z<<2)], r3.x, 4
stg.a.f32 g[r1.z+(r0.w<<2)], r4.x, 4
end
