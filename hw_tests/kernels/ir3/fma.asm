; FP32 throughput: each fiber runs `iterations` rounds of 8 independent multiply-adds
; (two (rpt3) mad.f32 over r4 and r5), x = x * 1.0 + 1.0, so every accumulator ends at the
; iteration count (exact below 2^24); out[fiber] = r4.x.
@localsize 128, 1, 1
@buf 0 (c2.x)
@arg(c3.x) u32 iterations
@const(c3.y) 1.0
@invocationid(r0.x)
@wgid(r48.x)
@branchstack 1
mov.u32u32 r1.x, c2.x
mov.u32u32 r1.y, c2.y
mov.f32f32 r1.z, c3.y
(rpt3)mov.f32f32 r4.x, (0.0)
(rpt3)mov.f32f32 r5.x, (0.0)
mov.u32u32 r2.x, 0
shl.b r0.y, r48.x, 7
(rpt2)nop
add.u r0.y, r0.y, r0.x
loop:
(jp)(rpt3)mad.f32 r4.x, (r)r4.x, r1.z, c3.y
(rpt3)mad.f32 r5.x, (r)r5.x, r1.z, c3.y
add.u r2.x, r2.x, 1
(rpt2)nop
cmps.u.lt p0.x, r2.x, c3.x
(rpt5)nop
br p0.x, #loop
(rpt5)nop
stg.a.f32 g[r1.x+(r0.y<<2)], r4.x, 1
end
