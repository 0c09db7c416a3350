; out[i] = in[i*n] + in[i*n+1] + ... + in[i*n+n-1] (f32, added in that order): a loop per fiber.
@localsize 64, 1, 1
@buf 0 (c2.x)              ; in: rows of n values
@buf 0 (c2.z)              ; out: one sum per row
@arg(c3.x) u32 n
@invocationid(r0.x)
@wgid(r48.x)
@branchstack 1
mov.u32u32 r1.x, c2.x
mov.u32u32 r1.y, c2.y
mov.u32u32 r1.z, c2.z
mov.u32u32 r1.w, c2.w
shl.b r0.y, r48.x, 6
(rpt2)nop
add.u r0.y, r0.y, r0.x      ; row
(rpt2)nop
mul.u24 r2.z, r0.y, c3.x    ; index of the row's first value
mov.f32f32 r2.x, (0.0)      ; sum
mov.u32u32 r2.y, 0          ; j
(rpt4)nop
loop:
(jp)ldg.a.f32 r3.x, g[r1.x+(r2.z<<2)], 1
add.u r2.y, r2.y, 1
(rpt2)nop
cmps.u.lt p0.x, r2.y, c3.x
(sy)add.f r2.x, r2.x, r3.x
add.u r2.z, r2.z, 1
(rpt5)nop
br p0.x, #loop
(rpt5)nop
stg.a.f32 g[r1.z+(r0.y<<2)], r2.x, 1
end
