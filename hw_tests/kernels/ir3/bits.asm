; Integer shifts and masks on u32 data:
;   out[i] = (((x << 3) ^ (x >> 5)) & mask) | ((x ashr 28) & 0xf)   with mask an argument
;   aux[i] = (~x & 0xffff) + clz(x) + (bit 7 of x) + bitreverse(x) & 0xff
@localsize 64, 1, 1
@buf 0 (c2.x)              ; x
@buf 0 (c2.z)              ; out
@buf 0 (c3.x)              ; aux
@arg(c3.z) u32 mask
@invocationid(r0.x)
@wgid(r48.x)
mov.u32u32 r1.x, c2.x
mov.u32u32 r1.y, c2.y
mov.u32u32 r1.z, c2.z
mov.u32u32 r1.w, c2.w
mov.u32u32 r4.x, c3.x
mov.u32u32 r4.y, c3.y
shl.b r0.y, r48.x, 6
(rpt2)nop
add.u r0.y, r0.y, r0.x
(rpt5)nop
ldg.a.u32 r2.x, g[r1.x+(r0.y<<2)], 1
(sy)shl.b r2.y, r2.x, 3
shr.b r2.z, r2.x, 5
ashr.b r2.w, r2.x, 28
(rpt2)nop
xor.b r3.x, r2.y, r2.z
and.b r3.y, r2.w, 15
(rpt1)nop
and.b r3.x, r3.x, c3.z
(rpt2)nop
or.b r3.x, r3.x, r3.y
not.b r3.z, r2.x
clz.b r3.w, r2.x
getbit.b r5.x, r2.x, 7
bfrev.b r5.y, r2.x
and.b r3.z, r3.z, c5.x
(rpt2)nop
add.u r3.w, r3.w, r3.z
and.b r5.y, r5.y, 255
(rpt1)nop
add.u r3.w, r3.w, r5.x
(rpt2)nop
add.u r3.w, r3.w, r5.y
(rpt5)nop
stg.a.u32 g[r1.z+(r0.y<<2)], r3.x, 1
stg.a.u32 g[r4.x+(r0.y<<2)], r3.w, 1
end
@const(c5.x) 0xffff
