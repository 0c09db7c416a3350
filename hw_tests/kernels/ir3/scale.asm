; out[i] = scale * in[i] + bias: the scale is a scalar argument, the bias a const of the program.
@localsize 64, 1, 1
@buf 0 (c2.x)              ; in
@buf 0 (c2.z)              ; out
@arg(c3.x) f32 scale
@const(c3.y) 0.25          ; bias
@invocationid(r0.x)
@wgid(r48.x)
mov.u32u32 r1.x, c2.x
mov.u32u32 r1.y, c2.y
mov.u32u32 r1.z, c2.z
mov.u32u32 r1.w, c2.w
shl.b r0.y, r48.x, 6
(rpt2)nop
add.u r0.y, r0.y, r0.x
(rpt5)nop
ldg.a.f32 r2.x, g[r1.x+(r0.y<<2)], 1
(sy)mad.f32 r2.y, c3.x, r2.x, c3.y
(rpt5)nop
stg.a.f32 g[r1.z+(r0.y<<2)], r2.y, 1
end
