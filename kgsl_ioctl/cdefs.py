"""C declarations of the KGSL UAPI (msm_kgsl.h, KGSL "3.14") for cffi, laid out as on arm64.

Struct and member names are exactly the header's, so `struct kgsl_gpuobj_alloc` here is the
argument of IOCTL_KGSL_GPUOBJ_ALLOC there. Groups follow the ioctl they belong to; comments say
which way a field travels ("in" = filled by the caller, "out" = filled by KGSL) and its unit.

Why fixed widths: the header is written with `unsigned long`, `size_t` (`__kernel_size_t`) and
pointers, whose width depends on the caller's ABI. These declarations spell out the arm64
(LP64) widths instead: every `unsigned long`, `size_t` and pointer member is a __u64 (the
header's C type is in the comment; a pointer is passed as an address, `int(ffi.cast("uintptr_t",
p))`), `unsigned int` is __u32 and `int` __s32. The structs keep their natural-alignment holes
(kgsl_devinfo has two), which cffi reproduces because __u64 is 8-byte aligned on every 64-bit
host. A 32-bit ARM caller has other sizes (kgsl_device_getproperty is 12 bytes there, not 24)
and so other request numbers; see kgsl_ioctl.abi.

Every layout is checked by tests/test_kgsl_ioctl.py against mesa's msm_kgsl.h compiled by
aarch64-linux-gnu-gcc (frozen verdicts in tests/data/kgsl_ioctl/).
"""

CDEF = r"""
typedef uint8_t  __u8;
typedef uint16_t __u16;
typedef uint32_t __u32;
typedef uint64_t __u64;
typedef int32_t  __s32;
typedef int64_t  __s64;

/* The header's two enums used as member types; cffi makes both unsigned int, as gcc does. */
enum kgsl_user_mem_type {
    KGSL_USER_MEM_TYPE_PMEM = 0, KGSL_USER_MEM_TYPE_ASHMEM = 1, KGSL_USER_MEM_TYPE_ADDR = 2,
    KGSL_USER_MEM_TYPE_ION = 3, KGSL_USER_MEM_TYPE_MAX = 7
};
enum kgsl_cmdwindow_type {
    KGSL_CMDWINDOW_2D = 0, KGSL_CMDWINDOW_3D = 1, KGSL_CMDWINDOW_MMU = 2, KGSL_CMDWINDOW_ARBITER = 255
};

/* ---- Properties (IOCTL_KGSL_DEVICE_GETPROPERTY / SETPROPERTY) ------------------------------ */
struct kgsl_devinfo {                   /* KGSL_PROP_DEVICE_INFO, 40 bytes */
    __u32 device_id;                    /* out: 1 for kgsl-3d0 (the kernel's device->id + 1) */
    __u32 chip_id;                      /* out: core << 24 | major << 16 | minor << 8 | patch */
    __u32 mmu_enabled;                  /* out: 1 when the GPU has a per-process page table */
    __u64 gmem_gpubaseaddr;             /* out: unsigned long; 0 on a6xx */
    __u32 gpu_id;                       /* out: 0 on adreno (older cores: 200, 205...) */
    __u64 gmem_sizebytes;               /* out: size_t; on-chip GMEM bytes */
};

/* The per-context shadow the GPU writes timestamps to, mapped read-only from DEVICE_SHADOW. */
struct kgsl_devmemstore {
    __u32 soptimestamp;                 /* start-of-pipeline timestamp */
    __u32 sbz;
    __u32 eoptimestamp;                 /* end-of-pipeline (retired) timestamp */
    __u32 sbz2;
    __u32 preempted;
    __u32 sbz3;
    __u32 ref_wait_ts;
    __u32 sbz4;
    __u32 current_context;
    __u32 sbz5;
};

struct kgsl_capabilities_properties {   /* KGSL_QUERY_CAPS_PROPERTIES */
    __u64 list;                         /* in: address of count __u32 */
    __u32 count;                        /* in/out: 0 asks how many */
};

struct kgsl_capabilities {              /* KGSL_PROP_QUERY_CAPABILITIES */
    __u64 data;                         /* in: address of the querytype's struct */
    __u64 size;
    __u32 querytype;
};

struct kgsl_shadowprop {                /* KGSL_PROP_DEVICE_SHADOW */
    __u64 gpuaddr;                      /* out: unsigned long; the memstore's mmap token */
    __u64 size;                         /* out: size_t */
    __u32 flags;                        /* out: KGSL_FLAGS_* */
};

struct kgsl_qdss_stm_prop {
    __u64 gpuaddr;
    __u64 size;
};

struct kgsl_qtimer_prop {
    __u64 gpuaddr;
    __u64 size;
};

struct kgsl_version {                   /* KGSL_PROP_VERSION */
    __u32 drv_major;                    /* out: KGSL_VERSION_MAJOR (3) */
    __u32 drv_minor;                    /* out: KGSL_VERSION_MINOR (14) */
    __u32 dev_major;
    __u32 dev_minor;
};

struct kgsl_sp_generic_mem {            /* KGSL_PROP_SP_GENERIC_MEM */
    __u64 local;
    __u64 pvt;
};

struct kgsl_ucode_version {             /* KGSL_PROP_UCODE_VERSION */
    __u32 pfp;
    __u32 pm4;
};

struct kgsl_gpmu_version {              /* KGSL_PROP_GPMU_VERSION */
    __u32 major;
    __u32 minor;
    __u32 features;
};

struct kgsl_context_property {          /* KGSL_PROP_CONTEXT_PROPERTY */
    __u64 data;
    __u32 size;
    __u32 type;                         /* KGSL_CONTEXT_PROP_* */
    __u32 contextid;
};

struct kgsl_context_property_fault {
    __s32 faults;
    __u32 timestamp;
};

struct kgsl_gpu_model {                 /* KGSL_PROP_GPU_MODEL */
    char gpu_model[32];                 /* out: NUL-terminated, e.g. "Adreno630v2" */
};

struct kgsl_device_getproperty {        /* IOCTL_KGSL_DEVICE_GETPROPERTY and SETPROPERTY */
    __u32 type;                         /* in: KGSL_PROP_* */
    __u64 value;                        /* in: void __user *; the property's struct */
    __u64 sizebytes;                    /* in: size_t; must be that struct's size */
};

struct kgsl_device_constraint {         /* SETPROPERTY KGSL_PROP_PWR_CONSTRAINT */
    __u32 type;                         /* KGSL_CONSTRAINT_* */
    __u32 context_id;
    __u64 data;                         /* void __user *: kgsl_device_constraint_pwrlevel */
    __u64 size;                         /* size_t */
};

struct kgsl_device_constraint_pwrlevel {
    __u32 level;                        /* KGSL_CONSTRAINT_PWR_MIN or _MAX */
};

/* ---- Command batches and timestamps ---------------------------------------------------------- */
struct kgsl_ibdesc {                    /* one IB of SUBMIT_COMMANDS / ISSUEIBCMDS */
    __u64 gpuaddr;                      /* unsigned long */
    __u64 __pad;                        /* unsigned long */
    __u64 sizedwords;                   /* size_t */
    __u32 ctrl;
};

struct kgsl_cmdbatch_profiling_buffer {
    __u64 wall_clock_s;
    __u64 wall_clock_ns;
    __u64 gpu_ticks_queued;
    __u64 gpu_ticks_submitted;
    __u64 gpu_ticks_retired;
};

struct kgsl_device_waittimestamp {      /* no longer served by the kernel */
    __u32 timestamp;
    __u32 timeout;
};

struct kgsl_device_waittimestamp_ctxtid {
    __u32 context_id;                   /* in */
    __u32 timestamp;                    /* in: wait until the context retires this one */
    __u32 timeout;                      /* in: milliseconds */
};

struct kgsl_ringbuffer_issueibcmds {    /* deprecated */
    __u32 drawctxt_id;
    __u64 ibdesc_addr;                  /* unsigned long */
    __u32 numibs;
    __u32 timestamp;                    /* out */
    __u32 flags;
};

struct kgsl_cmdstream_readtimestamp {
    __u32 type;                         /* KGSL_TIMESTAMP_* */
    __u32 timestamp;                    /* out */
};

struct kgsl_cmdstream_freememontimestamp {
    __u64 gpuaddr;                      /* unsigned long */
    __u32 type;
    __u32 timestamp;
};

struct kgsl_cmdstream_readtimestamp_ctxtid {
    __u32 context_id;                   /* in */
    __u32 type;                         /* in: KGSL_TIMESTAMP_CONSUMED/RETIRED/QUEUED */
    __u32 timestamp;                    /* out */
};

struct kgsl_cmdstream_freememontimestamp_ctxtid {
    __u32 context_id;
    __u64 gpuaddr;                      /* unsigned long */
    __u32 type;
    __u32 timestamp;
};

/* ---- Draw contexts ---------------------------------------------------------------------------- */
struct kgsl_drawctxt_create {
    __u32 flags;                        /* in: KGSL_CONTEXT_* (priority, type, preemption...) */
    __u32 drawctxt_id;                  /* out */
};

struct kgsl_drawctxt_destroy {
    __u32 drawctxt_id;                  /* in */
};

struct kgsl_drawctxt_set_bin_base_offset {
    __u32 drawctxt_id;
    __u32 offset;
};

struct kgsl_gmem_desc {
    __u32 x;
    __u32 y;
    __u32 width;
    __u32 height;
    __u32 pitch;
};

struct kgsl_buffer_desc {
    __u64 hostptr;                      /* void * */
    __u64 gpuaddr;                      /* unsigned long */
    __s32 size;
    __u32 format;
    __u32 pitch;
    __u32 enabled;
};

struct kgsl_bind_gmem_shadow {
    __u32 drawctxt_id;
    struct kgsl_gmem_desc gmem_desc;
    __u32 shadow_x;
    __u32 shadow_y;
    struct kgsl_buffer_desc shadow_buffer;
    __u32 buffer_id;
};

/* ---- Legacy shared memory --------------------------------------------------------------------- */
struct kgsl_map_user_mem {              /* IOCTL_KGSL_MAP_USER_MEM: map the caller's memory */
    __s32 fd;                           /* in: dma-buf fd, or -1 for KGSL_USER_MEM_TYPE_ADDR */
    __u64 gpuaddr;                      /* out: unsigned long */
    __u64 len;                          /* in: size_t */
    __u64 offset;                       /* in: size_t */
    __u64 hostptr;                      /* in: unsigned long; the CPU address (type ADDR) */
    enum kgsl_user_mem_type memtype;    /* in */
    __u32 flags;                        /* in: KGSL_MEMFLAGS_* */
};

struct kgsl_sharedmem_from_pmem {
    __s32 pmem_fd;
    __u64 gpuaddr;                      /* out: unsigned long */
    __u32 len;
    __u32 offset;
};

struct kgsl_sharedmem_free {            /* SHAREDMEM_FREE and SHAREDMEM_FLUSH_CACHE */
    __u64 gpuaddr;                      /* unsigned long */
};

struct kgsl_sharedmem_from_vmalloc {
    __u64 gpuaddr;                      /* out: unsigned long */
    __u32 hostptr;
    __u32 flags;
};

struct kgsl_cmdwindow_write {
    enum kgsl_cmdwindow_type target;
    __u32 addr;
    __u32 data;
};

struct kgsl_gpumem_alloc {              /* IOCTL_KGSL_GPUMEM_ALLOC (legacy, no id) */
    __u64 gpuaddr;                      /* out: unsigned long */
    __u64 size;                         /* in: size_t */
    __u32 flags;
};

struct kgsl_cff_user_event {
    __u8 cff_opcode;                    /* unsigned char */
    __u32 op1;
    __u32 op2;
    __u32 op3;
    __u32 op4;
    __u32 op5;
    __u32 __pad[2];
};

struct kgsl_cff_syncmem {
    __u64 gpuaddr;                      /* unsigned long */
    __u64 len;                          /* size_t */
    __u32 __pad[2];
};

/* ---- Timestamp events (fences) ---------------------------------------------------------------- */
struct kgsl_timestamp_event {           /* IOCTL_KGSL_TIMESTAMP_EVENT */
    __s32 type;                         /* in: KGSL_TIMESTAMP_EVENT_FENCE */
    __u32 timestamp;                    /* in: fire when the context retires it */
    __u32 context_id;                   /* in */
    __u64 priv;                         /* in: void __user *; kgsl_timestamp_event_fence */
    __u64 len;                          /* in: size_t; sizeof(*priv) */
};

struct kgsl_timestamp_event_genlock {
    __s32 handle;
};

struct kgsl_timestamp_event_fence {
    __s32 fence_fd;                     /* out: a sync_file fd */
};

/* ---- GPU memory by id (GPUMEM_*_ID) ----------------------------------------------------------- */
struct kgsl_gpumem_alloc_id {
    __u32 id;                           /* out: mmap /dev/kgsl-3d0 at id << 12 */
    __u32 flags;                        /* in/out: KGSL_MEMFLAGS_*, cache mode, alignment */
    __u64 size;                         /* in/out: size_t */
    __u64 mmapsize;                     /* out: size_t */
    __u64 gpuaddr;                      /* out: unsigned long */
    __u64 __pad[2];                     /* unsigned long */
};

struct kgsl_gpumem_free_id {
    __u32 id;                           /* in */
    __u32 __pad;
};

struct kgsl_gpumem_get_info {
    __u64 gpuaddr;                      /* in/out: unsigned long; looked up when id is 0 */
    __u32 id;                           /* in/out */
    __u32 flags;                        /* out */
    __u64 size;                         /* out: size_t */
    __u64 mmapsize;                     /* out: size_t */
    __u64 useraddr;                     /* out: unsigned long */
    __u64 __pad[4];                     /* unsigned long */
};

struct kgsl_gpumem_sync_cache {
    __u64 gpuaddr;                      /* unsigned long */
    __u32 id;
    __u32 op;                           /* KGSL_GPUMEM_CACHE_* */
    __u64 offset;                       /* size_t */
    __u64 length;                       /* size_t */
};

struct kgsl_gpumem_sync_cache_bulk {
    __u64 id_list;                      /* unsigned int __user * */
    __u32 count;
    __u32 op;
    __u32 __pad[2];
};

/* ---- Performance counters --------------------------------------------------------------------- */
struct kgsl_perfcounter_get {
    __u32 groupid;                      /* KGSL_PERFCOUNTER_GROUP_* */
    __u32 countable;
    __u32 offset;                       /* out: register offset (dwords) */
    __u32 offset_hi;
    __u32 __pad;
};

struct kgsl_perfcounter_put {
    __u32 groupid;
    __u32 countable;
    __u32 __pad[2];
};

struct kgsl_perfcounter_query {
    __u32 groupid;
    __u64 countables;                   /* unsigned int __user * */
    __u32 count;
    __u32 max_counters;
    __u32 __pad[2];
};

struct kgsl_perfcounter_read_group {
    __u32 groupid;
    __u32 countable;
    __u64 value;                        /* unsigned long long */
};

struct kgsl_perfcounter_read {
    __u64 reads;                        /* struct kgsl_perfcounter_read_group __user * */
    __u32 count;
    __u32 __pad[2];
};

/* ---- SUBMIT_COMMANDS (before GPU_COMMAND) and its sync points -------------------------------- */
struct kgsl_cmd_syncpoint_timestamp {   /* KGSL_CMD_SYNCPOINT_TYPE_TIMESTAMP payload */
    __u32 context_id;
    __u32 timestamp;
};

struct kgsl_cmd_syncpoint_fence {       /* KGSL_CMD_SYNCPOINT_TYPE_FENCE payload */
    __s32 fd;
};

struct kgsl_cmd_syncpoint_timeline {    /* KGSL_CMD_SYNCPOINT_TYPE_TIMELINE payload */
    __u64 timelines;
    __u32 count;
    __u32 timelines_size;
};

struct kgsl_cmd_syncpoint {
    __s32 type;
    __u64 priv;                         /* void __user * */
    __u64 size;                         /* size_t */
};

struct kgsl_submit_commands {
    __u32 context_id;
    __u32 flags;
    __u64 cmdlist;                      /* struct kgsl_ibdesc __user * */
    __u32 numcmds;
    __u64 synclist;                     /* struct kgsl_cmd_syncpoint __user * */
    __u32 numsyncs;
    __u32 timestamp;                    /* out */
    __u32 __pad[4];
};

/* ---- Sync sources ----------------------------------------------------------------------------- */
struct kgsl_syncsource_create {
    __u32 id;
    __u32 __pad[3];
};

struct kgsl_syncsource_destroy {
    __u32 id;
    __u32 __pad[3];
};

struct kgsl_syncsource_create_fence {
    __u32 id;
    __s32 fence_fd;
    __u32 __pad[4];
};

struct kgsl_syncsource_signal_fence {
    __u32 id;
    __s32 fence_fd;
    __u32 __pad[4];
};

struct kgsl_cff_sync_gpuobj {
    __u64 offset;
    __u64 length;
    __u32 id;
};

/* ---- GPU objects (GPUOBJ_*): the allocation interface of current drivers --------------------- */
struct kgsl_gpuobj_alloc {
    __u64 size;                         /* in: bytes */
    __u64 flags;                        /* in/out: KGSL_MEMFLAGS_*, cache mode, memtype, align */
    __u64 va_len;                       /* in: SVM reservation (SPARSE_VIRT) */
    __u64 mmapsize;                     /* out: bytes to mmap */
    __u32 id;                           /* out: mmap /dev/kgsl-3d0 at id << 12 */
    __u32 metadata_len;                 /* in: <= KGSL_GPUOBJ_ALLOC_METADATA_MAX */
    __u64 metadata;                     /* in: address of a label for debugfs */
};

struct kgsl_gpuobj_free {
    __u64 flags;                        /* in: KGSL_GPUOBJ_FREE_ON_EVENT to free on a timestamp */
    __u64 priv;                         /* in: __user address of the event's payload */
    __u32 id;                           /* in */
    __u32 type;                         /* in: KGSL_GPU_EVENT_* when FREE_ON_EVENT */
    __u32 len;                          /* in: sizeof(*priv) */
};

struct kgsl_gpu_event_timestamp {
    __u32 context_id;
    __u32 timestamp;
};

struct kgsl_gpu_event_fence {
    __s32 fd;
};

struct kgsl_gpuobj_info {
    __u64 gpuaddr;                      /* out: GPU VA (the CPU VA once mapped with USE_CPU_MAP) */
    __u64 flags;                        /* out */
    __u64 size;                         /* out */
    __u64 va_len;                       /* out */
    __u64 va_addr;                      /* out: CPU address of the mapping, 0 if none */
    __u32 id;                           /* in */
};

struct kgsl_gpuobj_import {
    __u64 priv;                         /* in: __user address of the import type's struct */
    __u64 priv_len;
    __u64 flags;
    __u32 type;                         /* in: KGSL_USER_MEM_TYPE_DMABUF or _ADDR */
    __u32 id;                           /* out */
};

struct kgsl_gpuobj_import_dma_buf {
    __s32 fd;
};

struct kgsl_gpuobj_import_useraddr {
    __u64 virtaddr;
};

struct kgsl_gpuobj_sync_obj {           /* one entry of GPUOBJ_SYNC's list */
    __u64 offset;
    __u64 length;
    __u32 id;
    __u32 op;                           /* KGSL_GPUMEM_CACHE_* */
};

struct kgsl_gpuobj_sync {
    __u64 objs;                         /* in: __user address of count kgsl_gpuobj_sync_obj */
    __u32 obj_len;                      /* in: sizeof(struct kgsl_gpuobj_sync_obj) */
    __u32 count;
};

struct kgsl_gpuobj_set_info {
    __u64 flags;                        /* KGSL_GPUOBJ_SET_INFO_* */
    __u64 metadata;
    __u32 id;
    __u32 metadata_len;
    __u32 type;
};

/* ---- GPU_COMMAND: command objects (IBs), memory objects and sync points ---------------------- */
struct kgsl_command_object {
    __u64 offset;                       /* in: byte offset into the object */
    __u64 gpuaddr;                      /* in: GPU VA of the IB (KGSL_CMDLIST_IB) */
    __u64 size;                         /* in: bytes */
    __u32 flags;                        /* in: KGSL_CMDLIST_* or KGSL_OBJLIST_* */
    __u32 id;                           /* in: the object's id (memory objects) */
};

struct kgsl_command_syncpoint {
    __u64 priv;                         /* in: __user address of the payload */
    __u64 size;                         /* in: sizeof(payload) */
    __u32 type;                         /* in: KGSL_CMD_SYNCPOINT_TYPE_* */
};

struct kgsl_gpu_command {
    __u64 flags;                        /* in: KGSL_CMDBATCH_* */
    __u64 cmdlist;                      /* in: __user address of numcmds kgsl_command_object */
    __u32 cmdsize;                      /* in: sizeof(struct kgsl_command_object) */
    __u32 numcmds;
    __u64 objlist;                      /* in: memory objects (KGSL_OBJLIST_MEMOBJ) */
    __u32 objsize;
    __u32 numobjs;
    __u64 synclist;                     /* in: kgsl_command_syncpoint list */
    __u32 syncsize;
    __u32 numsyncs;
    __u32 context_id;                   /* in */
    __u32 timestamp;                    /* out: the context's timestamp of this submission */
};

struct kgsl_preemption_counters_query {
    __u64 counters;
    __u32 size_user;
    __u32 size_priority_level;
    __u32 max_priority_level;
};

/* ---- Sparse memory ---------------------------------------------------------------------------- */
struct kgsl_sparse_phys_alloc {
    __u64 size;
    __u64 pagesize;
    __u64 flags;
    __u32 id;
};

struct kgsl_sparse_phys_free {
    __u32 id;
};

struct kgsl_sparse_virt_alloc {
    __u64 size;
    __u64 pagesize;
    __u64 flags;
    __u64 gpuaddr;
    __u32 id;
};

struct kgsl_sparse_virt_free {
    __u32 id;
};

struct kgsl_sparse_binding_object {
    __u64 virtoffset;
    __u64 physoffset;
    __u64 size;
    __u64 flags;
    __u32 id;
};

struct kgsl_sparse_bind {
    __u64 list;
    __u32 id;
    __u32 size;
    __u32 count;
};

struct kgsl_gpu_sparse_command {
    __u64 flags;
    __u64 sparselist;
    __u64 synclist;
    __u32 sparsesize;
    __u32 numsparse;
    __u32 syncsize;
    __u32 numsyncs;
    __u32 context_id;
    __u32 timestamp;
    __u32 id;
};

/* ---- Virtual buffer objects: bind ranges ------------------------------------------------------ */
struct kgsl_gpumem_bind_range {
    __u64 child_offset;
    __u64 target_offset;
    __u64 length;
    __u32 child_id;
    __u32 op;                           /* KGSL_GPUMEM_RANGE_OP_* */
};

struct kgsl_gpumem_bind_ranges {
    __u64 ranges;
    __u32 ranges_nents;
    __u32 ranges_size;
    __u32 id;
    __u32 flags;                        /* KGSL_GPUMEM_BIND_* */
    __s32 fence_id;
    __u32 padding;
};

/* ---- GPU_AUX_COMMAND --------------------------------------------------------------------------- */
struct kgsl_gpu_aux_command_bind {
    __u64 rangeslist;
    __u64 numranges;
    __u64 rangesize;
    __u32 target;
    __u32 padding;
};

struct kgsl_gpu_aux_command_generic {
    __u64 priv;
    __u64 size;
    __u32 type;
    __u32 padding;
};

struct kgsl_gpu_aux_command {
    __u64 flags;                        /* KGSL_GPU_AUX_COMMAND_* */
    __u64 cmdlist;
    __u32 cmdsize;
    __u32 numcmds;
    __u64 synclist;
    __u32 syncsize;
    __u32 numsyncs;
    __u32 context_id;
    __u32 timestamp;
};

/* ---- Timelines --------------------------------------------------------------------------------- */
struct kgsl_timeline_create {
    __u64 seqno;
    __u32 id;                           /* out */
    __u32 padding;
};

struct kgsl_timeline_val {
    __u64 seqno;
    __u32 timeline;
    __u32 padding;
};

struct kgsl_timeline_wait {
    __s64 tv_sec;
    __s64 tv_nsec;
    __u64 timelines;
    __u32 count;
    __u32 timelines_size;
    __u32 flags;                        /* KGSL_TIMELINE_WAIT_ALL or _ANY */
    __u32 padding;
};

struct kgsl_timeline_signal {
    __u64 timelines;
    __u32 count;
    __u32 timelines_size;
};

struct kgsl_timeline_fence_get {
    __u64 seqno;
    __u32 timeline;
    __s32 handle;                       /* out: a sync_file fd */
};

struct kgsl_gpu_aux_command_timeline {
    __u64 timelines;
    __u32 count;
    __u32 timelines_size;
};

/* ---- Fault reports ----------------------------------------------------------------------------- */
struct kgsl_pagefault_report {
    __u64 fault_addr;
    __u64 reserved[2];
    __u32 fault_type;                   /* KGSL_PAGEFAULT_TYPE_* */
    __u32 __pad;
};

struct kgsl_fault {
    __u64 fault;
    __u32 type;                         /* KGSL_FAULT_TYPE_* */
    __u32 count;
    __u32 size;
    __u32 padding;
};

struct kgsl_fault_report {
    __u64 faultlist;
    __u32 faultnents;
    __u32 faultsize;
    __u32 context_id;
    __u32 padding;
};

/* ---- RECURRING_COMMAND ------------------------------------------------------------------------- */
struct kgsl_recurring_command {
    __u64 flags;                        /* KGSL_CMDBATCH_START/STOP_RECURRING */
    __u64 cmdlist;
    __u32 cmdsize;
    __u32 numcmds;
    __u64 objlist;
    __u32 objsize;
    __u32 numobjs;
    __u32 context_id;
    __u32 padding;
};
"""
