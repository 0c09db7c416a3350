; Half precision: d = max(a * b + scale, 0.5) in f16 (scale demoted from the f32 argument), then
; e = f32(d) * 2.0 and h = f16(a) * f16(b) fused-free through mad.f16 with c = a.
@localsize 64, 1, 1
@buf 0 (c2.x)              ; a (f16)
@buf 0 (c2.z)              ; b (f16)
@buf 0 (c3.x)              ; d (f16)
@buf 0 (c3.z)              ; e (f32)
@buf 0 (c4.x)              ; h (f16)
@arg(c4.z) f32 scale
@invocationid(r0.x)
@wgid(r48.x)
mov.u32u32 r1.x, c2.x
mov.u32u32 r1.y, c2.y
mov.u32u32 r1.z, c2.z
mov.u32u32 r1.w, c2.w
mov.u32u32 r2.x, c3.x
mov.u32u32 r2.y, c3.y
mov.u32u32 r2.z, c3.z
mov.u32u32 r2.w, c3.w
mov.u32u32 r3.x, c4.x
mov.u32u32 r3.y, c4.y
shl.b r0.y, r48.x, 6
(rpt2)nop
add.u r0.y, r0.y, r0.x
(rpt5)nop
ldg.a.f16 hr10.x, g[r1.x+(r0.y<<1)], 1
ldg.a.f16 hr10.y, g[r1.z+(r0.y<<1)], 1
(sy)mul.f hr10.z, hr10.x, hr10.y
(rpt2)nop
add.f hr10.w, hr10.z, hc4.z
mad.f16 hr11.y, hr10.x, hr10.y, hr10.x
(rpt1)nop
max.f hr11.x, hr10.w, h(0.5)
(rpt2)nop
cov.f16f32 r6.x, hr11.x
(rpt2)nop
mul.f r6.y, r6.x, (2.0)
(rpt5)nop
stg.a.f16 g[r2.x+(r0.y<<1)], hr11.x, 1
stg.a.f32 g[r2.z+(r0.y<<2)], r6.y, 1
stg.a.f16 g[r3.x+(r0.y<<1)], hr11.y, 1
end
