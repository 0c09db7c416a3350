; Dispatch shapes: every work-item writes where it is. out[global linear index] =
;   wg.x | wg.y << 6 | wg.z << 12 | local.x << 18 | local.y << 22 | local.z << 26
; with the global index ((wg.z * gy + wg.y) * gx + wg.x) * 32 + (local.z * 4 + local.y) * 4 + local.x.
@localsize 4, 4, 2
@buf 0 (c2.x)
@numwg(c3.x)               ; c3.xyz: the grid in workgroups
@wgid(r48.x)               ; r48.xyz
@invocationid(r0.x)        ; r0.xyz
mov.u32u32 r1.x, c2.x
mov.u32u32 r1.y, c2.y
mul.u24 r2.x, r48.z, c3.y
shl.b r2.z, r0.z, 4
shl.b r2.w, r0.y, 2
(rpt1)nop
add.u r2.x, r2.x, r48.y
add.u r2.z, r2.z, r2.w
(rpt1)nop
mul.u24 r2.x, r2.x, c3.x
add.u r2.z, r2.z, r0.x
(rpt1)nop
add.u r2.x, r2.x, r48.x
(rpt2)nop
shl.b r2.x, r2.x, 5
(rpt2)nop
add.u r2.x, r2.x, r2.z
shl.b r3.x, r48.y, 6
shl.b r3.y, r48.z, 12
shl.b r3.z, r0.x, 18
shl.b r3.w, r0.y, 22
shl.b r4.x, r0.z, 26
or.b r3.x, r3.x, r48.x
or.b r3.y, r3.y, r3.z
(rpt1)nop
or.b r3.x, r3.x, r3.w
or.b r3.y, r3.y, r4.x
(rpt2)nop
or.b r3.x, r3.x, r3.y
(rpt5)nop
stg.a.u32 g[r1.x+(r2.x<<2)], r3.x, 1
end
