; out[w] = sum of the 128 u32 values of workgroup w: each fiber stores its value to local
; memory, then a tree of additions halves the active fibers each round, with a barrier between
; rounds; fiber 0 writes the result.
@localsize 128, 1, 1
@buf 0 (c2.x)              ; in
@buf 0 (c2.z)              ; out: one sum per workgroup
@invocationid(r0.x)
@wgid(r48.x)
@localmem 512
@branchstack 1
mov.u32u32 r1.x, c2.x
mov.u32u32 r1.y, c2.y
mov.u32u32 r1.z, c2.z
mov.u32u32 r1.w, c2.w
shl.b r0.y, r48.x, 7
shl.b r0.z, r0.x, 2         ; my local byte address
mov.u32u32 r0.w, 64         ; stride in fibers
mov.u32u32 r4.x, r48.x
add.u r0.y, r0.y, r0.x
(rpt5)nop
ldg.a.u32 r2.x, g[r1.x+(r0.y<<2)], 1
(sy)stl.u32 l[r0.z], r2.x, 1
bar
round:
(jp)cmps.u.lt p0.x, r0.x, r0.w
shl.b r3.x, r0.w, 2
(rpt2)nop
add.u r3.y, r0.z, r3.x      ; partner's local byte address
(rpt5)nop
br !p0.x, #skip
ldl.u32 r3.z, l[r3.y], 1
ldl.u32 r3.w, l[r0.z], 1
(ss)add.u r3.z, r3.z, r3.w
(rpt5)nop
stl.u32 l[r0.z], r3.z, 1
skip:
(jp)bar
(sy)(ss)shr.b r0.w, r0.w, 1    ; after a barrier: wait for local memory traffic
(rpt2)nop
cmps.u.gt p0.x, r0.w, 0
(rpt5)nop
br p0.x, #round
cmps.u.eq p0.x, r0.x, 0
(rpt5)nop
br !p0.x, #done
ldl.u32 r5.x, l[r0.z], 1
(ss)nop
stg.a.u32 g[r1.z+(r4.x<<2)], r5.x, 1
done:
(jp)end
