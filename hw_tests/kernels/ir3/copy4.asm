; Memory bandwidth: out[i] = in[i], 16 bytes per fiber (ldg/stg of 4 components).
@localsize 128, 1, 1
@buf 0 (c2.x)              ; in
@buf 0 (c2.z)              ; out
@invocationid(r0.x)
@wgid(r48.x)
mov.u32u32 r1.x, c2.x
mov.u32u32 r1.y, c2.y
mov.u32u32 r1.z, c2.z
mov.u32u32 r1.w, c2.w
shl.b r0.y, r48.x, 7
(rpt2)nop
add.u r0.y, r0.y, r0.x
(rpt2)nop
shl.b r0.y, r0.y, 2
(rpt5)nop
ldg.a.u32 r2.x, g[r1.x+(r0.y<<2)], 4
(sy)nop
stg.a.u32 g[r1.z+(r0.y<<2)], r2.x, 4
end
