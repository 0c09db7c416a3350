; Atomics of every kind:
;   hist[x & 15] += 1            IBO atomic (atomic.b.add) on buffer 1
;   stats[0] += x                global atomic (atomic.g.add) on an address
;   tickets[i] = stats[1]++      the old value a global atomic returns: every fiber a distinct ticket
;   max[0] = max(max[0], x)      IBO atomic max on buffer 4
;   counts[w] = fibers of workgroup w, counted with a local-memory atomic
@localsize 64, 1, 1
@buf 0 (c2.x)              ; x (u32)
@buf 16                    ; hist (IBO 1)
@buf 0 (c2.z)              ; stats: [sum, ticket counter]
@buf 0 (c3.x)              ; tickets
@buf 1                     ; max (IBO 4)
@buf 0 (c3.z)              ; counts, one per workgroup
@invocationid(r0.x)
@wgid(r48.x)
@localmem 4
@branchstack 1
mov.u32u32 r1.x, c2.x
mov.u32u32 r1.y, c2.y
mov.u32u32 r4.x, c2.z
mov.u32u32 r4.y, c2.w
mov.u32u32 r4.w, c2.w
mov.u32u32 r5.x, c3.x
mov.u32u32 r5.y, c3.y
mov.u32u32 r6.x, c3.z
mov.u32u32 r6.y, c3.w
add.u r4.z, c2.z, 4         ; &stats[1] (buffers are page aligned: no carry)
mov.u32u32 r6.z, 0          ; local address 0
mov.u32u32 r6.w, r48.x
shl.b r0.y, r48.x, 6
cmps.u.eq p0.x, r0.x, 0
(rpt2)nop
add.u r0.y, r0.y, r0.x
(rpt5)nop
br !p0.x, #zeroed           ; fiber 0 clears the local counter
stl.u32 l[r6.z], r6.z, 1
zeroed:
(jp)ldg.a.u32 r2.x, g[r1.x+(r0.y<<2)], 1
bar
(sy)and.b r2.y, r2.x, 15
mov.u32u32 r2.z, 1
mov.u32u32 r2.w, 0
(rpt5)nop
atomic.b.add.untyped.1d.u32.1.imm r2.z, r2.y, 1
atomic.g.add.untyped.1d.u32.1.g r3.x, r4.x, r2.x
mov.u32u32 r3.y, 1
(rpt5)nop
atomic.g.add.untyped.1d.u32.1.g r3.z, r4.z, r3.y
mov.u32u32 r3.w, r2.x
(rpt5)nop
atomic.b.max.untyped.1d.u32.1.imm r3.w, r2.w, 4
atomic.add.typed.1d.u32.1.l r7.x, l[r6.z], 1
(sy)stg.a.u32 g[r5.x+(r0.y<<2)], r3.z, 1
bar
(ss)nop
br !p0.x, #done
ldl.u32 r7.y, l[r6.z], 1
(ss)nop
stg.a.u32 g[r6.x+(r6.w<<2)], r7.y, 1
done:
(jp)end
