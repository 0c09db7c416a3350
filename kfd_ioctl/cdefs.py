"""C declarations of the amdkfd UAPI (<linux/kfd_ioctl.h>), ABI level 1.18, for cffi.

Struct and field names are exactly the kernel's, so `struct kfd_ioctl_create_queue_args` here is the
argument of AMDKFD_IOC_CREATE_QUEUE there. Groups follow the ioctl they belong to. Comments say
which way a field travels ("in" = filled by the caller, "out" = filled by KFD) and its unit.

Every layout is checked by tests/test_kfd_ioctl.py against the installed kernel header compiled by
the C compiler, and against frozen compiler verdicts for the newer header revisions.

Layout rules the kernel keeps, and so do we: every struct is made of fixed-width integers, 64-bit
members are naturally aligned and explicit `pad` members fill the holes, so the layout is the same
for 32- and 64-bit callers.
"""

CDEF = r"""
typedef uint8_t  __u8;
typedef uint16_t __u16;
typedef uint32_t __u32;
typedef uint64_t __u64;
typedef int32_t  __s32;
typedef int64_t  __s64;

/* ---- AMDKFD_IOC_GET_VERSION (0x01) -------------------------------------------------------- */
struct kfd_ioctl_get_version_args {
    __u32 major_version;            /* out: KFD_IOCTL_MAJOR_VERSION of the running kernel */
    __u32 minor_version;            /* out: its KFD_IOCTL_MINOR_VERSION */
};

/* ---- AMDKFD_IOC_CREATE_QUEUE (0x02) --------------------------------------------------------
 * Two sizes are in use. KFD dispatches on the command number alone and copies
 * min(caller size, kernel size) bytes, zero-filling the rest, so either works on any kernel. */
struct kfd_ioctl_create_queue_args {
    __u64 ring_base_address;        /* in: GPU VA of the ring; a GPU-mapped BO on kernels >= 6.11 */
    __u64 write_pointer_address;    /* in: GPU VA of the 64-bit write pointer */
    __u64 read_pointer_address;     /* in: GPU VA of the 64-bit read pointer */
    __u64 doorbell_offset;          /* out: mmap offset on /dev/kfd; the low 13 bits (gfx9+)
                                       locate this queue's doorbell inside the 8 KiB page */
    __u32 ring_size;                /* in: bytes, a power of two >= KFD_MIN_QUEUE_RING_SIZE */
    __u32 gpu_id;                   /* in: the node's gpu_id from topology sysfs */
    __u32 queue_type;               /* in: KFD_IOC_QUEUE_TYPE_* */
    __u32 queue_percentage;         /* in: 0..KFD_MAX_QUEUE_PERCENTAGE in bits 0..7;
                                       bits 8..15 select the XCC on multi-XCC parts */
    __u32 queue_priority;           /* in: 0..KFD_MAX_QUEUE_PRIORITY */
    __u32 queue_id;                 /* out: handle for DESTROY/UPDATE_QUEUE, SET_CU_MASK... */
    __u64 eop_buffer_address;       /* in: GPU VA of the end-of-pipe buffer (compute queues) */
    __u64 eop_buffer_size;          /* in: bytes */
    __u64 ctx_save_restore_address; /* in: GPU VA of the CWSR area (compute queues) */
    __u32 ctx_save_restore_size;    /* in: bytes of CWSR area per XCC */
    __u32 ctl_stack_size;           /* in: bytes of it used by the control stack */
    __u32 sdma_engine_id;           /* in: engine index, for KFD_IOC_QUEUE_TYPE_SDMA_BY_ENG_ID */
    __u32 pad;
};                                  /* 96 bytes: ABI 1.17 and later */

/* The same struct before ABI 1.17 (88 bytes), as in linux-libc-dev 6.1. */
struct kfd_ioctl_create_queue_args_legacy {
    __u64 ring_base_address;
    __u64 write_pointer_address;
    __u64 read_pointer_address;
    __u64 doorbell_offset;
    __u32 ring_size;
    __u32 gpu_id;
    __u32 queue_type;
    __u32 queue_percentage;
    __u32 queue_priority;
    __u32 queue_id;
    __u64 eop_buffer_address;
    __u64 eop_buffer_size;
    __u64 ctx_save_restore_address;
    __u32 ctx_save_restore_size;
    __u32 ctl_stack_size;
};

/* ---- AMDKFD_IOC_DESTROY_QUEUE (0x03) ------------------------------------------------------- */
struct kfd_ioctl_destroy_queue_args {
    __u32 queue_id;                 /* in */
    __u32 pad;
};

/* ---- AMDKFD_IOC_UPDATE_QUEUE (0x07) -------------------------------------------------------- */
struct kfd_ioctl_update_queue_args {
    __u64 ring_base_address;        /* in: new ring GPU VA */
    __u32 queue_id;                 /* in */
    __u32 ring_size;                /* in: bytes */
    __u32 queue_percentage;         /* in: 0 suspends the queue */
    __u32 queue_priority;           /* in */
};

/* ---- AMDKFD_IOC_SET_CU_MASK (0x1A) --------------------------------------------------------- */
struct kfd_ioctl_set_cu_mask_args {
    __u32 queue_id;                 /* in */
    __u32 num_cu_mask;              /* in: number of mask BITS (a multiple of 32) */
    __u64 cu_mask_ptr;              /* in: user pointer to num_cu_mask/32 __u32 words */
};

/* ---- AMDKFD_IOC_GET_QUEUE_WAVE_STATE (0x1B) ------------------------------------------------ */
struct kfd_ioctl_get_queue_wave_state_args {
    __u64 ctl_stack_address;        /* in: user buffer receiving the control stack */
    __u32 ctl_stack_used_size;      /* out: bytes */
    __u32 save_area_used_size;      /* out: bytes of wave state saved */
    __u32 queue_id;                 /* in */
    __u32 pad;
};

/* ---- AMDKFD_IOC_AVAILABLE_MEMORY (0x23) ---------------------------------------------------- */
struct kfd_ioctl_get_available_memory_args {
    __u64 available;                /* out: bytes of VRAM this process may still allocate */
    __u32 gpu_id;                   /* in */
    __u32 pad;
};

/* ---- AMDKFD_IOC_SET_MEMORY_POLICY (0x04) ----------------------------------------------------
 * Only meaningful before gfx9; later GPUs ignore the apertures. */
struct kfd_ioctl_set_memory_policy_args {
    __u64 alternate_aperture_base;  /* in: GPU VA */
    __u64 alternate_aperture_size;  /* in: bytes */
    __u32 gpu_id;                   /* in */
    __u32 default_policy;           /* in: KFD_IOC_CACHE_POLICY_* */
    __u32 alternate_policy;         /* in: KFD_IOC_CACHE_POLICY_* */
    union {                         /* called pad before ABI 1.18; both names are accepted */
        __u32 misc_process_flag;    /* in: KFD_PROC_FLAG_* */
        __u32 pad;
    };
};

/* ---- AMDKFD_IOC_GET_CLOCK_COUNTERS (0x05) -------------------------------------------------- */
struct kfd_ioctl_get_clock_counters_args {
    __u64 gpu_clock_counter;        /* out: GPU timestamp counter, ticks */
    __u64 cpu_clock_counter;        /* out: CLOCK_MONOTONIC_RAW, ns */
    __u64 system_clock_counter;     /* out: CLOCK_BOOTTIME, ns */
    __u64 system_clock_freq;        /* out: Hz of system_clock_counter (1e9) */
    __u32 gpu_id;                   /* in */
    __u32 pad;
};

/* ---- AMDKFD_IOC_GET_PROCESS_APERTURES (0x06, deprecated) and _NEW (0x14) ------------------- */
struct kfd_process_device_apertures {
    __u64 lds_base;                 /* out: GPU VA ranges of this process on one GPU, */
    __u64 lds_limit;                /*      limits inclusive */
    __u64 scratch_base;
    __u64 scratch_limit;
    __u64 gpuvm_base;
    __u64 gpuvm_limit;
    __u32 gpu_id;                   /* out */
    __u32 pad;
};

struct kfd_ioctl_get_process_apertures_args {
    struct kfd_process_device_apertures process_apertures[7];  /* NUM_OF_SUPPORTED_GPUS */
    __u32 num_of_nodes;             /* out: entries filled, at most 7 */
    __u32 pad;
};

struct kfd_ioctl_get_process_apertures_new_args {
    __u64 kfd_process_device_apertures_ptr; /* in: user array of kfd_process_device_apertures */
    __u32 num_of_nodes;             /* in: array length; out: entries filled */
    __u32 pad;
};

/* ---- AMDKFD_IOC_DBG_*_DEPRECATED (0x0D..0x10): removed from the kernel, numbers reserved --- */
struct kfd_ioctl_dbg_register_args {
    __u32 gpu_id;
    __u32 pad;
};

struct kfd_ioctl_dbg_unregister_args {
    __u32 gpu_id;
    __u32 pad;
};

struct kfd_ioctl_dbg_address_watch_args {
    __u64 content_ptr;              /* user pointer to the packed request */
    __u32 gpu_id;
    __u32 buf_size_in_bytes;        /* counts gpu_id and this field too */
};

struct kfd_ioctl_dbg_wave_control_args {
    __u64 content_ptr;
    __u32 gpu_id;
    __u32 buf_size_in_bytes;
};

/* ---- AMDKFD_IOC_CREATE_EVENT (0x08), DESTROY (0x09), SET (0x0A), RESET (0x0B) -------------- */
struct kfd_ioctl_create_event_args {
    __u64 event_page_offset;        /* in (first signal event on a dGPU): handle of the event-page
                                       BO, >= KFD_SIGNAL_EVENT_LIMIT * 8 bytes;
                                       out: mmap offset of the event page on /dev/kfd */
    __u32 event_trigger_data;       /* out: signal events only; the data a GPU interrupt
                                       carries to fire this event */
    __u32 event_type;               /* in: KFD_IOC_EVENT_* */
    __u32 auto_reset;               /* in: 1 = reset when a waiter is released */
    __u32 node_id;                  /* in: topology node, for per-device event types */
    __u32 event_id;                 /* out */
    __u32 event_slot_index;         /* out: 8-byte slot in the event page (signal events) */
};

struct kfd_ioctl_destroy_event_args {
    __u32 event_id;                 /* in */
    __u32 pad;
};

struct kfd_ioctl_set_event_args {
    __u32 event_id;                 /* in */
    __u32 pad;
};

struct kfd_ioctl_reset_event_args {
    __u32 event_id;                 /* in */
    __u32 pad;
};

/* ---- AMDKFD_IOC_WAIT_EVENTS (0x0C) and the per-event data it returns ----------------------- */
struct kfd_memory_exception_failure {
    __u32 NotPresent;               /* 1: page not present, or a privilege violation */
    __u32 ReadOnly;                 /* 1: write to a read-only page */
    __u32 NoExecute;                /* 1: instruction fetch from a no-execute page */
    __u32 imprecise;                /* 1: the reported va is not the exact faulting address */
};

struct kfd_hsa_memory_exception_data {
    struct kfd_memory_exception_failure failure;
    __u64 va;                       /* faulting GPU VA */
    __u32 gpu_id;
    __u32 ErrorType;                /* KFD_MEM_ERR_* (a RAS error), 0 for a plain page fault */
};

struct kfd_hsa_hw_exception_data {
    __u32 reset_type;               /* KFD_HW_EXCEPTION_WHOLE_GPU_RESET / _PER_ENGINE_RESET */
    __u32 reset_cause;              /* KFD_HW_EXCEPTION_GPU_HANG / _ECC */
    __u32 memory_lost;              /* 1: VRAM contents did not survive the reset */
    __u32 gpu_id;
};

struct kfd_hsa_signal_event_data {
    __u64 last_event_age;           /* in/out (ABI 1.14): age seen last; 0 = not tracked */
};

struct kfd_event_data {             /* 48 bytes each, in the array at events_ptr */
    union {                         /* out, selected by the event's type */
        struct kfd_hsa_memory_exception_data memory_exception_data;   /* KFD_IOC_EVENT_MEMORY */
        struct kfd_hsa_hw_exception_data hw_exception_data;   /* KFD_IOC_EVENT_HW_EXCEPTION */
        struct kfd_hsa_signal_event_data signal_event_data;   /* KFD_IOC_EVENT_SIGNAL */
    };
    __u64 kfd_event_data_ext;       /* reserved pointer for future event kinds; pass 0 */
    __u32 event_id;                 /* in */
    __u32 pad;
};

struct kfd_ioctl_wait_events_args {
    __u64 events_ptr;               /* in: user array of num_events struct kfd_event_data */
    __u32 num_events;               /* in */
    __u32 wait_for_all;             /* in: 0 = return when any event fires, 1 = all of them */
    __u32 timeout;                  /* in: milliseconds; 0xFFFFFFFF waits forever */
    __u32 wait_result;              /* out: KFD_IOC_WAIT_RESULT_* */
};

/* ---- AMDKFD_IOC_SET_SCRATCH_BACKING_VA (0x11) ---------------------------------------------- */
struct kfd_ioctl_set_scratch_backing_va_args {
    __u64 va_addr;                  /* in: GPU VA backing the scratch aperture (no-HWS only) */
    __u32 gpu_id;                   /* in */
    __u32 pad;
};

/* ---- AMDKFD_IOC_GET_TILE_CONFIG (0x12) ----------------------------------------------------- */
struct kfd_ioctl_get_tile_config_args {
    __u64 tile_config_ptr;          /* in: user array of __u32 */
    __u64 macro_tile_config_ptr;    /* in: user array of __u32 */
    __u32 num_tile_configs;         /* in: array length; out: entries filled */
    __u32 num_macro_tile_configs;   /* in: array length; out: entries filled */
    __u32 gpu_id;                   /* in */
    __u32 gb_addr_config;           /* out: GB_ADDR_CONFIG register */
    __u32 num_banks;                /* out */
    __u32 num_ranks;                /* out */
};

/* ---- AMDKFD_IOC_SET_TRAP_HANDLER (0x13) ---------------------------------------------------- */
struct kfd_ioctl_set_trap_handler_args {
    __u64 tba_addr;                 /* in: GPU VA of the trap handler code (256-byte aligned) */
    __u64 tma_addr;                 /* in: GPU VA of the trap handler's memory */
    __u32 gpu_id;                   /* in */
    __u32 pad;
};

/* ---- AMDKFD_IOC_ACQUIRE_VM (0x15) ---------------------------------------------------------- */
struct kfd_ioctl_acquire_vm_args {
    __u32 drm_fd;                   /* in: fd of the GPU's /dev/dri/renderD* node */
    __u32 gpu_id;                   /* in */
};

/* ---- AMDKFD_IOC_ALLOC_MEMORY_OF_GPU (0x16), FREE (0x17) ------------------------------------ */
struct kfd_ioctl_alloc_memory_of_gpu_args {
    __u64 va_addr;                  /* in: GPU VA the BO will be mapped at on every GPU */
    __u64 size;                     /* in: bytes, page multiple */
    __u64 handle;                   /* out: BO handle for MAP/UNMAP/FREE and CREATE_EVENT */
    __u64 mmap_offset;              /* in (USERPTR): the CPU address of the user memory;
                                       out: offset to mmap on the DRM render fd (or, for DOORBELL
                                       and MMIO_REMAP BOs, on /dev/kfd) */
    __u32 gpu_id;                   /* in */
    __u32 flags;                    /* in: one KFD_IOC_ALLOC_MEM_FLAGS_ type | attribute bits */
};

struct kfd_ioctl_free_memory_of_gpu_args {
    __u64 handle;                   /* in */
};

/* ---- AMDKFD_IOC_MAP_MEMORY_TO_GPU (0x18), UNMAP_MEMORY_FROM_GPU (0x19) --------------------- */
struct kfd_ioctl_map_memory_to_gpu_args {
    __u64 handle;                   /* in */
    __u64 device_ids_array_ptr;     /* in: user array of __u32 gpu_id */
    __u32 n_devices;                /* in: its length */
    __u32 n_success;                /* in/out: devices done so far (start at 0; a retry after
                                       a failure resumes from here) */
};

struct kfd_ioctl_unmap_memory_from_gpu_args {
    __u64 handle;
    __u64 device_ids_array_ptr;
    __u32 n_devices;
    __u32 n_success;
};

/* ---- AMDKFD_IOC_ALLOC_QUEUE_GWS (0x1E) ----------------------------------------------------- */
struct kfd_ioctl_alloc_queue_gws_args {
    __u32 queue_id;                 /* in */
    __u32 num_gws;                  /* in: global wave sync entries wanted, 0 frees */
    __u32 first_gws;                /* out: index of the first one (the range is contiguous) */
    __u32 pad;
};

/* ---- AMDKFD_IOC_GET_DMABUF_INFO (0x1C), IMPORT_DMABUF (0x1D), EXPORT_DMABUF (0x24) --------- */
struct kfd_ioctl_get_dmabuf_info_args {
    __u64 size;                     /* out: bytes */
    __u64 metadata_ptr;             /* in: user buffer for the BO's UMD metadata */
    __u32 metadata_size;            /* in: buffer bytes; out: metadata bytes */
    __u32 gpu_id;                   /* out: the GPU owning the memory */
    __u32 flags;                    /* out: KFD_IOC_ALLOC_MEM_FLAGS_* */
    __u32 dmabuf_fd;                /* in */
};

struct kfd_ioctl_import_dmabuf_args {
    __u64 va_addr;                  /* in: GPU VA to map it at */
    __u64 handle;                   /* out: BO handle */
    __u32 gpu_id;                   /* in */
    __u32 dmabuf_fd;                /* in */
};

struct kfd_ioctl_export_dmabuf_args {
    __u64 handle;                   /* in: BO handle */
    __u32 flags;                    /* in: open flags of the new fd (O_CLOEXEC, O_RDWR) */
    __u32 dmabuf_fd;                /* out */
};

/* ---- AMDKFD_IOC_SMI_EVENTS (0x1F) ---------------------------------------------------------- */
struct kfd_ioctl_smi_events_args {
    __u32 gpuid;                    /* in (spelled without the underscore in the kernel too) */
    __u32 anon_fd;                  /* out: read() gives text lines, one event each; write() an
                                       8-byte KFD_SMI_EVENT_MASK_FROM_INDEX mask to subscribe */
};

/* ---- AMDKFD_IOC_CRIU_OP (0x22) ------------------------------------------------------------- */
struct kfd_ioctl_criu_args {
    __u64 devices;                  /* user array of kfd_criu_device_bucket */
    __u64 bos;                      /* user array of kfd_criu_bo_bucket */
    __u64 priv_data;                /* user buffer of opaque driver state */
    __u64 priv_data_size;           /* bytes */
    __u32 num_devices;
    __u32 num_bos;
    __u32 num_objects;
    __u32 pid;
    __u32 op;                       /* KFD_CRIU_OP_*; 4 bytes of tail padding follow */
};

struct kfd_criu_device_bucket {
    __u32 user_gpu_id;
    __u32 actual_gpu_id;
    __u32 drm_fd;
    __u32 pad;
};

struct kfd_criu_bo_bucket {
    __u64 addr;
    __u64 size;
    __u64 offset;
    __u64 restored_offset;
    __u32 gpu_id;
    __u32 alloc_flags;
    __u32 dmabuf_fd;
    __u32 pad;
};

/* ---- AMDKFD_IOC_SVM (0x20) ----------------------------------------------------------------- */
struct kfd_ioctl_svm_attribute {
    __u32 type;                     /* KFD_IOCTL_SVM_ATTR_* */
    __u32 value;                    /* a gpu_id, KFD_IOCTL_SVM_FLAG_* bits or log2(pages) */
};

struct kfd_ioctl_svm_args {         /* 24 bytes + nattr * 8; the request number counts 24 */
    __u64 start_addr;               /* in: CPU/GPU VA, page aligned */
    __u64 size;                     /* in: bytes, page multiple */
    __u32 op;                       /* in: KFD_IOCTL_SVM_OP_* */
    __u32 nattr;                    /* in: entries in attrs */
    struct kfd_ioctl_svm_attribute attrs[];
};

/* ---- AMDKFD_IOC_SET_XNACK_MODE (0x21) ------------------------------------------------------ */
struct kfd_ioctl_set_xnack_mode_args {
    __s32 xnack_enabled;            /* in: 0 off, >0 on, <0 just query; out: the mode now */
};

/* ---- AMDKFD_IOC_RUNTIME_ENABLE (0x25) ------------------------------------------------------ */
struct kfd_runtime_info {           /* what a debugger reads back about the runtime */
    __u64 r_debug;
    __u32 runtime_state;            /* DEBUG_RUNTIME_STATE_* */
    __u32 ttmp_setup;
};

struct kfd_ioctl_runtime_enable_args {
    __u64 r_debug;                  /* in: user pointer to the loader's r_debug, 0 if none */
    __u32 mode_mask;                /* in: KFD_RUNTIME_ENABLE_MODE_* bits, 0 = disable */
    __u32 capabilities_mask;        /* out: KFD_RUNTIME_ENABLE_CAPS_* bits */
};

/* ---- AMDKFD_IOC_DBG_TRAP (0x26): the debugger interface ------------------------------------ */
struct kfd_dbg_device_info_entry {
    __u64 exception_status;
    __u64 lds_base;
    __u64 lds_limit;
    __u64 scratch_base;
    __u64 scratch_limit;
    __u64 gpuvm_base;
    __u64 gpuvm_limit;
    __u32 gpu_id;
    __u32 location_id;
    __u32 vendor_id;
    __u32 device_id;
    __u32 revision_id;
    __u32 subsystem_vendor_id;
    __u32 subsystem_device_id;
    __u32 fw_version;
    __u32 gfx_target_version;       /* e.g. 110000 for gfx1100 */
    __u32 simd_count;
    __u32 max_waves_per_simd;
    __u32 array_count;
    __u32 simd_arrays_per_engine;
    __u32 num_xcc;
    __u32 capability;               /* HSA_CAP_* bits, as in topology sysfs */
    __u32 debug_prop;
};

struct kfd_queue_snapshot_entry {
    __u64 exception_status;
    __u64 ring_base_address;
    __u64 write_pointer_address;
    __u64 read_pointer_address;
    __u64 ctx_save_restore_address;
    __u32 queue_id;
    __u32 gpu_id;
    __u32 ring_size;
    __u32 queue_type;
    __u32 ctx_save_restore_area_size;
    __u32 reserved;
};

struct kfd_context_save_area_header {   /* at the start of each queue's CWSR area */
    struct {
        __u32 control_stack_offset;
        __u32 control_stack_size;
        __u32 wave_state_offset;
        __u32 wave_state_size;
    } wave_state;
    __u32 debug_offset;
    __u32 debug_size;
    __u64 err_payload_addr;
    __u32 err_event_id;
    __u32 reserved1;
};

struct kfd_ioctl_dbg_trap_enable_args {
    __u64 exception_mask;           /* in: EC masks (KFD_EC_MASK) to report to the debugger */
    __u64 rinfo_ptr;                /* in: user buffer for a struct kfd_runtime_info */
    __u32 rinfo_size;               /* in/out: bytes */
    __u32 dbg_fd;                   /* in: fd KFD writes to when an exception is raised */
};

struct kfd_ioctl_dbg_trap_send_runtime_event_args {
    __u64 exception_mask;
    __u32 gpu_id;
    __u32 queue_id;
};

struct kfd_ioctl_dbg_trap_set_exceptions_enabled_args {
    __u64 exception_mask;
};

struct kfd_ioctl_dbg_trap_set_wave_launch_override_args {
    __u32 override_mode;            /* KFD_DBG_TRAP_OVERRIDE_* */
    __u32 enable_mask;              /* KFD_DBG_TRAP_MASK_* */
    __u32 support_request_mask;
    __u32 pad;
};

struct kfd_ioctl_dbg_trap_set_wave_launch_mode_args {
    __u32 launch_mode;              /* KFD_DBG_TRAP_WAVE_LAUNCH_MODE_* */
    __u32 pad;
};

struct kfd_ioctl_dbg_trap_suspend_queues_args {
    __u64 exception_mask;
    __u64 queue_array_ptr;          /* user array of __u32 queue ids */
    __u32 num_queues;
    __u32 grace_period;             /* units of 1K GPU clocks before preemption */
};

struct kfd_ioctl_dbg_trap_resume_queues_args {
    __u64 queue_array_ptr;
    __u32 num_queues;
    __u32 pad;
};

struct kfd_ioctl_dbg_trap_set_node_address_watch_args {
    __u64 address;
    __u32 mode;                     /* KFD_DBG_TRAP_ADDRESS_WATCH_MODE_* */
    __u32 mask;
    __u32 gpu_id;
    __u32 id;                       /* out */
};

struct kfd_ioctl_dbg_trap_clear_node_address_watch_args {
    __u32 gpu_id;
    __u32 id;
};

struct kfd_ioctl_dbg_trap_set_flags_args {
    __u32 flags;                    /* in/out: KFD_DBG_TRAP_FLAG_* */
    __u32 pad;
};

struct kfd_ioctl_dbg_trap_query_debug_event_args {
    __u64 exception_mask;
    __u32 gpu_id;
    __u32 queue_id;
};

struct kfd_ioctl_dbg_trap_query_exception_info_args {
    __u64 info_ptr;
    __u32 info_size;
    __u32 source_id;
    __u32 exception_code;           /* EC_* */
    __u32 clear_exception;
};

struct kfd_ioctl_dbg_trap_queue_snapshot_args {
    __u64 exception_mask;
    __u64 snapshot_buf_ptr;         /* user array of struct kfd_queue_snapshot_entry */
    __u32 num_queues;
    __u32 entry_size;               /* bytes per entry, for forward compatibility */
};

struct kfd_ioctl_dbg_trap_device_snapshot_args {
    __u64 exception_mask;
    __u64 snapshot_buf_ptr;         /* user array of struct kfd_dbg_device_info_entry */
    __u32 num_devices;
    __u32 entry_size;
};

struct kfd_ioctl_dbg_trap_args {
    __u32 pid;                      /* in: the debugged process */
    __u32 op;                       /* in: KFD_IOC_DBG_TRAP_*, selects the union member */
    union {
        struct kfd_ioctl_dbg_trap_enable_args enable;
        struct kfd_ioctl_dbg_trap_send_runtime_event_args send_runtime_event;
        struct kfd_ioctl_dbg_trap_set_exceptions_enabled_args set_exceptions_enabled;
        struct kfd_ioctl_dbg_trap_set_wave_launch_override_args launch_override;
        struct kfd_ioctl_dbg_trap_set_wave_launch_mode_args launch_mode;
        struct kfd_ioctl_dbg_trap_suspend_queues_args suspend_queues;
        struct kfd_ioctl_dbg_trap_resume_queues_args resume_queues;
        struct kfd_ioctl_dbg_trap_set_node_address_watch_args set_node_address_watch;
        struct kfd_ioctl_dbg_trap_clear_node_address_watch_args clear_node_address_watch;
        struct kfd_ioctl_dbg_trap_set_flags_args set_flags;
        struct kfd_ioctl_dbg_trap_query_debug_event_args query_debug_event;
        struct kfd_ioctl_dbg_trap_query_exception_info_args query_exception_info;
        struct kfd_ioctl_dbg_trap_queue_snapshot_args queue_snapshot;
        struct kfd_ioctl_dbg_trap_device_snapshot_args device_snapshot;
    };
};
"""
