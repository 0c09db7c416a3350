; Divergent control flow: steps[i] = the number of Collatz steps from x[i] down to 1. Every fiber
; loops a different number of times, and inside the loop odd and even values take different
; sides of an if.
@localsize 64, 1, 1
@buf 0 (c2.x)              ; x (u32, >= 1)
@buf 0 (c2.z)              ; steps
@invocationid(r0.x)
@wgid(r48.x)
@branchstack 2
mov.u32u32 r1.x, c2.x
mov.u32u32 r1.y, c2.y
mov.u32u32 r1.z, c2.z
mov.u32u32 r1.w, c2.w
shl.b r0.y, r48.x, 6
(rpt2)nop
add.u r0.y, r0.y, r0.x
mov.u32u32 r2.y, 0          ; steps
(rpt4)nop
ldg.a.u32 r2.x, g[r1.x+(r0.y<<2)], 1
(sy)nop
loop:
(jp)cmps.u.gt p0.x, r2.x, 1
and.b r3.x, r2.x, 1
(rpt4)nop
br !p0.x, #done
cmps.u.ne p0.x, r3.x, 0
(rpt5)nop
br !p0.x, #even
shl.b r3.y, r2.x, 1         ; odd: x = 3x + 1
(rpt2)nop
add.u r2.x, r3.y, r2.x
(rpt2)nop
add.u r2.x, r2.x, 1
jump #next
even:
(jp)shr.b r2.x, r2.x, 1
next:
(jp)add.u r2.y, r2.y, 1
(rpt2)nop
jump #loop
done:
(jp)nop
(rpt5)nop
stg.a.u32 g[r1.z+(r0.y<<2)], r2.y, 1
end
