// Device-scope atomics on global memory; every result is independent of the
// order in which the work-items arrive.
#include "common.h"

kernel void global_atomics(global const int *x, global int *sum, global int *maxv,
                           global uint *minu, global uint *bits, global uint *prod,
                           global uint *ticket, global uint *counter) {
  uint i = global_id_x();
  int v = x[i];
  __opencl_atomic_fetch_add((volatile global atomic_int *)sum, v,
                            memory_order_relaxed, memory_scope_device);
  __opencl_atomic_fetch_max((volatile global atomic_int *)maxv, v,
                            memory_order_relaxed, memory_scope_device);
  __opencl_atomic_fetch_min((volatile global atomic_uint *)minu, (uint)v,
                            memory_order_relaxed, memory_scope_device);
  __opencl_atomic_fetch_or((volatile global atomic_uint *)&bits[0], 1u << (v & 31),
                           memory_order_relaxed, memory_scope_device);
  __opencl_atomic_fetch_xor((volatile global atomic_uint *)&bits[1], (uint)v,
                            memory_order_relaxed, memory_scope_device);
  __opencl_atomic_fetch_and((volatile global atomic_uint *)&bits[2], ~(1u << (i & 31)) | (uint)(v & 1),
                            memory_order_relaxed, memory_scope_device);
  // Multiplication has no atomic instruction: compare-and-swap loop.
  volatile global atomic_uint *p = (volatile global atomic_uint *)prod;
  uint old = __opencl_atomic_load(p, memory_order_relaxed, memory_scope_device);
  while (!__opencl_atomic_compare_exchange_strong(p, &old, old * (2u * (uint)v + 1u),
                                                  memory_order_relaxed, memory_order_relaxed,
                                                  memory_scope_device)) {
  }
  // Each work-item draws a distinct ticket: the tickets are a permutation.
  ticket[i] = __opencl_atomic_fetch_add((volatile global atomic_uint *)counter, 1u,
                                        memory_order_relaxed, memory_scope_device);
}
