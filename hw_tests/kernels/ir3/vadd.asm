; c[i] = a[i] + b[i] (f32); one fiber per element, 64 per workgroup.
@localsize 64, 1, 1
@buf 0 (c2.x)              ; a
@buf 0 (c2.z)              ; b
@buf 0 (c3.x)              ; c
@invocationid(r0.x)
@wgid(r48.x)
mov.u32u32 r1.x, c2.x
mov.u32u32 r1.y, c2.y
mov.u32u32 r1.z, c2.z
mov.u32u32 r1.w, c2.w
mov.u32u32 r2.x, c3.x
mov.u32u32 r2.y, c3.y
shl.b r0.y, r48.x, 6      ; first element of the workgroup
(rpt2)nop
add.u r0.y, r0.y, r0.x    ; global index
(rpt5)nop
ldg.a.f32 r3.x, g[r1.x+(r0.y<<2)], 1
ldg.a.f32 r3.y, g[r1.z+(r0.y<<2)], 1
(sy)add.f r3.z, r3.x, r3.y
(rpt5)nop
stg.a.f32 g[r2.x+(r0.y<<2)], r3.z, 1
end
