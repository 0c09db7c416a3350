"""C declarations of the NVIDIA RM and UVM ioctl arguments, for cffi, per driver branch.

Type names are the headers' typedef names (NVOS21_PARAMETERS, nv_ioctl_card_info_t,
NV0080_ALLOC_PARAMETERS...), so a grep of open-gpu-kernel-modules finds each one.  A struct that
changed between branches is listed with one declaration per branch that introduced a layout:
`cdef_for(branch)` takes, for each struct, the newest variant not newer than the branch.

Layout rules: x86-64/arm64 LP64.  NV_ALIGN_BYTES(8) / NV_DECLARE_ALIGNED(x, 8) sit on 64-bit
members, which LP64 aligns to 8 anyway.  NvP64 is a `void *` in the kernel's build; here it is a
64-bit integer holding the user address.  Every layout is checked by tests/test_nv_ioctl.py against
the compiler's verdicts on the headers of each branch (scripts/nv_header_probe.py).
"""

TYPES = r"""
typedef uint8_t  NvU8;   typedef int8_t  NvS8;
typedef uint16_t NvU16;  typedef int16_t NvS16;
typedef uint32_t NvU32;  typedef int32_t NvS32;
typedef uint64_t NvU64;  typedef int64_t NvS64;
typedef NvU8     NvBool;
typedef NvU32    NvHandle;
typedef NvU16    NvV16;
typedef NvU32    NvV32;
typedef NvU64    NvP64;          /* void * in the kernel: a user address */
typedef NvU32    NV_STATUS;
"""

# (name, {first branch with this layout: declaration}) in declaration order.
BLOCKS = [
    # ---- RM escapes (nvos.h, nv-unix-nvos-params-wrappers.h) ------------------------------------
    ("NVOS00_PARAMETERS", {570: """
typedef struct {                     /* NV_ESC_RM_FREE */
    NvHandle hRoot;                  /* in: client */
    NvHandle hObjectParent;          /* in */
    NvHandle hObjectOld;             /* in: the object (its children go with it); hRoot frees the client */
    NvV32    status;                 /* out: NV_STATUS */
} NVOS00_PARAMETERS;"""}),
    ("NVOS02_PARAMETERS", {570: """
typedef struct {                     /* NV_ESC_RM_ALLOC_MEMORY (inside the _with_fd wrapper) */
    NvHandle hRoot;
    NvHandle hObjectParent;          /* a device */
    NvHandle hObjectNew;             /* in: handle to give the memory */
    NvV32    hClass;                 /* NV01_MEMORY_SYSTEM_OS_DESCRIPTOR for host memory */
    NvV32    flags;                  /* NVOS02_FLAGS_* */
    NvP64    pMemory;                /* in: page-aligned host address */
    NvU64    limit;                  /* in: size - 1 */
    NvV32    status;
} NVOS02_PARAMETERS;"""}),
    ("NVOS21_PARAMETERS", {570: """
typedef struct {                     /* NV_ESC_RM_ALLOC, 32 bytes */
    NvHandle hRoot;                  /* in: client (0 when allocating the client itself) */
    NvHandle hObjectParent;          /* in */
    NvHandle hObjectNew;             /* in/out: 0 lets RM pick the handle */
    NvV32    hClass;                 /* in: class id */
    NvP64    pAllocParms;            /* in: the class's allocation parameters, or 0 */
    NvU32    paramsSize;             /* in: their size (RM copies its own sizeof of the class's struct) */
    NvV32    status;                 /* out */
} NVOS21_PARAMETERS;"""}),
    ("NVOS64_PARAMETERS", {570: """
typedef struct {                     /* NV_ESC_RM_ALLOC with access rights, 48 bytes */
    NvHandle hRoot;
    NvHandle hObjectParent;
    NvHandle hObjectNew;
    NvV32    hClass;
    NvP64    pAllocParms;
    NvP64    pRightsRequested;       /* in: RS_ACCESS_MASK, or 0 */
    NvU32    paramsSize;
    NvU32    flags;                  /* in: NVOS64_FLAGS_* (FINN serialization) */
    NvV32    status;
} NVOS64_PARAMETERS;"""}),
    ("NVOS33_PARAMETERS", {570: """
typedef struct {                     /* NV_ESC_RM_MAP_MEMORY (inside the _with_fd wrapper) */
    NvHandle hClient;
    NvHandle hDevice;                /* device or subdevice */
    NvHandle hMemory;
    NvU64    offset;                 /* in: into the memory */
    NvU64    length;
    NvP64    pLinearAddress;         /* out: a cookie; mmap() the fd to get the mapping */
    NvU32    status;
    NvU32    flags;                  /* NVOS33_FLAGS_* */
} NVOS33_PARAMETERS;"""}),
    ("NVOS34_PARAMETERS", {570: """
typedef struct {                     /* NV_ESC_RM_UNMAP_MEMORY */
    NvHandle hClient;
    NvHandle hDevice;
    NvHandle hMemory;
    NvP64    pLinearAddress;         /* in: what MAP_MEMORY returned */
    NvU32    status;
    NvU32    flags;
} NVOS34_PARAMETERS;"""}),
    ("NVOS46_PARAMETERS", {570: """
typedef struct {                     /* NV_ESC_RM_MAP_MEMORY_DMA, 56 bytes before 580 */
    NvHandle hClient;
    NvHandle hDevice;
    NvHandle hDma;                   /* NV01_MEMORY_VIRTUAL (or a VA space) */
    NvHandle hMemory;
    NvU64    offset;                 /* in: into the memory */
    NvU64    length;
    NvV32    flags;                  /* NVOS46_FLAGS_* */
    NvU64    dmaOffset;              /* in (DMA_OFFSET_FIXED) / out: the GPU VA */
    NvV32    status;
} NVOS46_PARAMETERS;""", 580: """
typedef struct {                     /* NV_ESC_RM_MAP_MEMORY_DMA, 64 bytes from 580 */
    NvHandle hClient;
    NvHandle hDevice;
    NvHandle hDma;
    NvHandle hMemory;
    NvU64    offset;
    NvU64    length;
    NvV32    flags;
    NvV32    flags2;                 /* NVOS46_FLAGS2_* (580) */
    NvV32    kindOverride;           /* page kind when NVOS46_FLAGS_PAGE_KIND_OVERRIDE (580) */
    NvU64    dmaOffset;
    NvV32    status;
} NVOS46_PARAMETERS;"""}),
    ("NVOS47_PARAMETERS", {570: """
typedef struct {                     /* NV_ESC_RM_UNMAP_MEMORY_DMA */
    NvHandle hClient;
    NvHandle hDevice;
    NvHandle hDma;
    NvHandle hMemory;
    NvV32    flags;
    NvU64    dmaOffset;              /* in: what MAP_MEMORY_DMA returned */
    NvU64    size;                   /* in: 0 = the whole mapping */
    NvV32    status;
} NVOS47_PARAMETERS;"""}),
    ("NVOS54_PARAMETERS", {570: """
typedef struct {                     /* NV_ESC_RM_CONTROL, 32 bytes */
    NvHandle hClient;
    NvHandle hObject;                /* the object the command's class names */
    NvV32    cmd;                    /* NVxxxx_CTRL_CMD_* */
    NvU32    flags;                  /* NVOS54_FLAGS_* */
    NvP64    params;                 /* in: the command's parameter struct */
    NvU32    paramsSize;             /* in: must be exactly its size */
    NvV32    status;
} NVOS54_PARAMETERS;"""}),
    ("nv_ioctl_nvos02_parameters_with_fd", {570: """
typedef struct {
    NVOS02_PARAMETERS params;
    int fd;                          /* the /dev/nvidiaN fd to attach an mmap context to (or -1) */
} nv_ioctl_nvos02_parameters_with_fd;"""}),
    ("nv_ioctl_nvos33_parameters_with_fd", {570: """
typedef struct {
    NVOS33_PARAMETERS params;
    int fd;                          /* a fresh fd registered with NV_ESC_REGISTER_FD; mmap() it */
} nv_ioctl_nvos33_parameters_with_fd;"""}),

    # ---- Driver escapes (nv-ioctl.h) -----------------------------------------------------------
    ("nv_pci_info_t", {570: """
typedef struct {
    NvU32 domain;
    NvU8  bus;
    NvU8  slot;
    NvU8  function;
    NvU16 vendor_id;                 /* 0x10DE */
    NvU16 device_id;
} nv_pci_info_t;"""}),
    ("nv_ioctl_card_info_t", {570: """
typedef struct nv_ioctl_card_info {  /* NV_ESC_CARD_INFO: an array of at least as many as GPUs */
    NvBool        valid;
    nv_pci_info_t pci_info;
    NvU32         gpu_id;            /* the RM's gpuId (GPU_GET_ID_INFO_V2, ATTACH_GPUS_TO_FD) */
    NvU16         interrupt_line;
    NvU64         reg_address;       /* BAR0 */
    NvU64         reg_size;
    NvU64         fb_address;        /* BAR1 */
    NvU64         fb_size;
    NvU32         minor_number;      /* /dev/nvidia<minor_number> */
    NvU8          dev_name[10];
} nv_ioctl_card_info_t;"""}),
    ("nv_ioctl_xfer_t", {570: """
typedef struct nv_ioctl_xfer {       /* NV_ESC_IOCTL_XFER_CMD */
    NvU32 cmd;                       /* the escape to run */
    NvU32 size;                      /* its argument's size (may exceed _IOC_SIZE's 14 bits) */
    NvP64 ptr;                       /* its argument */
} nv_ioctl_xfer_t;"""}),
    ("nv_ioctl_rm_api_version_t", {570: """
typedef struct nv_ioctl_rm_api_version {   /* NV_ESC_CHECK_VERSION_STR */
    NvU32 cmd;                       /* NV_RM_API_VERSION_CMD_STRICT / RELAXED / QUERY */
    NvU32 reply;                     /* out: NV_RM_API_VERSION_REPLY_RECOGNIZED */
    char  versionString[64];         /* in: the client's version; out: the kernel's on mismatch or query */
} nv_ioctl_rm_api_version_t;"""}),
    ("nv_ioctl_register_fd_t", {570: """
typedef struct nv_ioctl_register_fd {      /* NV_ESC_REGISTER_FD, on /dev/nvidiaN */
    int ctl_fd;                      /* an open /dev/nvidiactl */
} nv_ioctl_register_fd_t;"""}),

    # ---- Allocation parameters of the classes a compute driver allocates ------------------------
    ("NV0000_ALLOC_PARAMETERS", {570: """
typedef struct NV0000_ALLOC_PARAMETERS {   /* NV01_ROOT_CLIENT (optional) */
    NvHandle hClient;
    NvU32    processID;
    char     processName[100];
    NvP64    pOsPidInfo;
} NV0000_ALLOC_PARAMETERS;"""}),
    ("NV0080_ALLOC_PARAMETERS", {570: """
typedef struct NV0080_ALLOC_PARAMETERS {   /* NV01_DEVICE_0 */
    NvU32    deviceId;               /* GPU_GET_ID_INFO_V2's deviceInstance */
    NvHandle hClientShare;           /* the client whose VA space to share (usually the client) */
    NvHandle hTargetClient;
    NvHandle hTargetDevice;
    NvV32    flags;                  /* NV_DEVICE_ALLOCATION_FLAGS_* */
    NvU64    vaSpaceSize;
    NvU64    vaStartInternal;
    NvU64    vaLimitInternal;
    NvV32    vaMode;                 /* NV_DEVICE_ALLOCATION_VAMODE_* */
} NV0080_ALLOC_PARAMETERS;"""}),
    ("NV2080_ALLOC_PARAMETERS", {570: """
typedef struct NV2080_ALLOC_PARAMETERS {   /* NV20_SUBDEVICE_0 */
    NvU32 subDeviceId;
} NV2080_ALLOC_PARAMETERS;"""}),
    ("NV_MEMORY_VIRTUAL_ALLOCATION_PARAMS", {570: """
typedef struct NV_MEMORY_VIRTUAL_ALLOCATION_PARAMS {   /* NV01_MEMORY_VIRTUAL */
    NvU64    offset;
    NvU64    limit;                  /* in/out: 0 = the whole VA space */
    NvHandle hVASpace;               /* 0 = the device's default VA space */
} NV_MEMORY_VIRTUAL_ALLOCATION_PARAMS;"""}),
    ("NV_VASPACE_ALLOCATION_PARAMETERS", {570: """
typedef struct {                     /* FERMI_VASPACE_A, 48 bytes before 580 */
    NvU32 index;                     /* NV_VASPACE_ALLOCATION_INDEX_GPU_NEW */
    NvV32 flags;                     /* NV_VASPACE_ALLOCATION_FLAGS_* */
    NvU64 vaSize;
    NvU64 vaStartInternal;
    NvU64 vaLimitInternal;
    NvU32 bigPageSize;
    NvU64 vaBase;
} NV_VASPACE_ALLOCATION_PARAMETERS;""", 580: """
typedef struct {                     /* FERMI_VASPACE_A, 56 bytes from 580 */
    NvU32 index;
    NvV32 flags;
    NvU64 vaSize;
    NvU64 vaStartInternal;
    NvU64 vaLimitInternal;
    NvU32 bigPageSize;
    NvU64 vaBase;
    NvU32 pasid;                     /* (580) used with ENABLE_NVLINK_ATS_TEST */
} NV_VASPACE_ALLOCATION_PARAMETERS;"""}),
    ("NV_CHANNEL_GROUP_ALLOCATION_PARAMETERS", {570: """
typedef struct {                     /* KEPLER_CHANNEL_GROUP_A (a TSG) */
    NvHandle hObjectError;
    NvHandle hObjectEccError;
    NvHandle hVASpace;
    NvU32    engineType;             /* NV2080_ENGINE_TYPE_* */
    NvBool   bIsCallingContextVgpuPlugin;
} NV_CHANNEL_GROUP_ALLOCATION_PARAMETERS;"""}),
    ("NV_CTXSHARE_ALLOCATION_PARAMETERS", {570: """
typedef struct {                     /* FERMI_CONTEXT_SHARE_A */
    NvHandle hVASpace;
    NvU32    flags;                  /* NV_CTXSHARE_ALLOCATION_FLAGS_SUBCONTEXT */
    NvU32    subctxId;               /* in (SPECIFIED) / out */
} NV_CTXSHARE_ALLOCATION_PARAMETERS;"""}),
    ("NV_MEMORY_DESC_PARAMS", {570: """
typedef struct NV_MEMORY_DESC_PARAMS {
    NvU64 base;
    NvU64 size;
    NvU32 addressSpace;
    NvU32 cacheAttrib;
} NV_MEMORY_DESC_PARAMS;"""}),
    ("NV_CHANNEL_ALLOC_PARAMS", {570: """
typedef struct NV_CHANNEL_ALLOC_PARAMS {   /* *_CHANNEL_GPFIFO_A (Volta through Blackwell) */
    NvHandle hObjectError;           /* error notifier memory */
    NvHandle hObjectBuffer;          /* no longer used */
    NvU64    gpFifoOffset;           /* GPU VA of the GPFIFO ring */
    NvU32    gpFifoEntries;
    NvU32    flags;                  /* NVOS04_FLAGS_* */
    NvHandle hContextShare;
    NvHandle hVASpace;
    NvHandle hUserdMemory[8];        /* [NV_MAX_SUBDEVICES]: memory holding USERD */
    NvU64    userdOffset[8];         /* where in it */
    NvU32    engineType;
    NvU32    cid;
    NvU32    subDeviceId;
    NvHandle hObjectEccError;
    NV_MEMORY_DESC_PARAMS instanceMem;   /* the rest is reserved for kernel clients */
    NV_MEMORY_DESC_PARAMS userdMem;
    NV_MEMORY_DESC_PARAMS ramfcMem;
    NV_MEMORY_DESC_PARAMS mthdbufMem;
    NvHandle hPhysChannelGroup;
    NvU32    internalFlags;
    NV_MEMORY_DESC_PARAMS errorNotifierMem;
    NV_MEMORY_DESC_PARAMS eccErrorNotifierMem;
    NvU32    ProcessID;
    NvU32    SubProcessID;
    NvU32    encryptIv[3];
    NvU32    decryptIv[3];
    NvU32    hmacNonce[8];
    NvU32    tpcConfigID;
} NV_CHANNEL_ALLOC_PARAMS;
typedef NV_CHANNEL_ALLOC_PARAMS NV_CHANNELGPFIFO_ALLOCATION_PARAMETERS;"""}),
    ("NV_HOPPER_USERMODE_A_PARAMS", {570: """
typedef struct NV_HOPPER_USERMODE_A_PARAMS {   /* HOPPER_USERMODE_A (optional) */
    NvBool bBar1Mapping;
    NvBool bPriv;
} NV_HOPPER_USERMODE_A_PARAMS;"""}),
    ("NV_GR_ALLOCATION_PARAMETERS", {570: """
typedef struct {                     /* *_COMPUTE_* (optional) */
    NvU32 version;
    NvU32 flags;
    NvU32 size;
    NvU32 caps;
} NV_GR_ALLOCATION_PARAMETERS;"""}),
    ("NVB0B5_ALLOCATION_PARAMETERS", {570: """
typedef struct NVB0B5_ALLOCATION_PARAMETERS {  /* *_DMA_COPY_* (optional) */
    NvU32 version;                   /* NVB0B5_ALLOCATION_PARAMETERS_VERSION_1 */
    NvU32 engineType;                /* NV2080_ENGINE_TYPE_COPYn */
} NVB0B5_ALLOCATION_PARAMETERS;"""}),
    ("NV_MEMORY_ALLOCATION_PARAMS", {570: """
typedef struct {                     /* NV01_MEMORY_LOCAL_USER, NV01_MEMORY_SYSTEM */
    NvU32    owner;
    NvU32    type;                   /* NVOS32_TYPE_* */
    NvU32    flags;                  /* NVOS32_ALLOC_FLAGS_* */
    NvU32    width;
    NvU32    height;
    NvS32    pitch;
    NvU32    attr;                   /* NVOS32_ATTR_* fields */
    NvU32    attr2;                  /* NVOS32_ATTR2_* fields */
    NvU32    format;
    NvU32    comprCovg;
    NvU32    zcullCovg;
    NvU64    rangeLo;
    NvU64    rangeHi;
    NvU64    size;                   /* in/out: bytes */
    NvU64    alignment;
    NvU64    offset;
    NvU64    limit;
    NvP64    address;
    NvU32    ctagOffset;
    NvHandle hVASpace;
    NvU32    internalflags;
    NvU32    tag;
    NvS32    numaNode;
} NV_MEMORY_ALLOCATION_PARAMS;"""}),
    ("NV_OS_DESC_MEMORY_ALLOCATION_PARAMS", {570: """
typedef struct {
    NvU32 type;
    NvU32 flags;
    NvU32 attr;
    NvU32 attr2;
    NvP64 descriptor;
    NvU64 limit;
    NvU32 descriptorType;
    NvU32 tag;
} NV_OS_DESC_MEMORY_ALLOCATION_PARAMS;"""}),

    ("NV83DE_ALLOC_PARAMETERS", {570: """
typedef struct NV83DE_ALLOC_PARAMETERS {   /* GT200_DEBUGGER: reads a context's SM and MMU fault state */
    NvHandle hDebuggerClient_Obsolete;     /* must be 0 */
    NvHandle hAppClient;                   /* the client owning the channel */
    NvHandle hClass3dObject;               /* the compute (or 3D) object on that channel */
} NV83DE_ALLOC_PARAMETERS;"""}),

    # ---- Memory the GPU and the RM write (nvgputypes.h, clc56f.h) -----------------------------------
    ("NvNotification", {570: """
typedef struct NvNotificationRec {  /* a channel's error notifier entry (volatile in the header) */
    struct {
        NvU32 nanoseconds[2];        /* since 1970 */
    } timeStamp;
    NvV32 info32;                    /* ROBUST_CHANNEL_* of the error */
    NvV16 info16;                    /* the NV2080 engine type */
    NvV16 status;                    /* 0xFFFF once the RM wrote it */
} NvNotification;"""}),
    ("Nvc56fControl", {570: """
typedef struct Nvc56fControl_struct {   /* USERD: a channel's control page (volatile in the header) */
    NvU32 Ignored00[0x010];
    NvU32 Put;
    NvU32 Get;
    NvU32 Reference;
    NvU32 PutHi;
    NvU32 Ignored01[0x002];
    NvU32 TopLevelGet;
    NvU32 TopLevelGetHi;
    NvU32 GetHi;
    NvU32 Ignored02[0x007];
    NvU32 Ignored03;
    NvU32 Ignored04[0x001];
    NvU32 GPGet;                     /* read-only: the next GPFIFO entry the host fetches */
    NvU32 GPPut;                     /* the entry after the last one submitted */
    NvU32 Ignored05[0x5c];
} Nvc56fControl;
typedef Nvc56fControl AmpereAControlGPFifo;"""}),

    # ---- Control parameters ----------------------------------------------------------------------
    ("NV0000_CTRL_SYSTEM_GET_BUILD_VERSION_V2_PARAMS", {570: """
typedef struct NV0000_CTRL_SYSTEM_GET_BUILD_VERSION_V2_PARAMS {
    char  driverVersionBuffer[256];  /* "580.95.05" */
    char  versionBuffer[256];
    char  driverBranch[256];
    char  titleBuffer[256];
    NvU32 changelistNumber;
    NvU32 officialChangelistNumber;
} NV0000_CTRL_SYSTEM_GET_BUILD_VERSION_V2_PARAMS;"""}),
    ("NV0000_CTRL_GPU_GET_ATTACHED_IDS_PARAMS", {570: """
typedef struct NV0000_CTRL_GPU_GET_ATTACHED_IDS_PARAMS {
    NvU32 gpuIds[32];                /* ends at NV0000_CTRL_GPU_INVALID_ID */
} NV0000_CTRL_GPU_GET_ATTACHED_IDS_PARAMS;"""}),
    ("NV0000_CTRL_GPU_GET_ID_INFO_V2_PARAMS", {570: """
typedef struct NV0000_CTRL_GPU_GET_ID_INFO_V2_PARAMS {
    NvU32 gpuId;                     /* in */
    NvU32 gpuFlags;
    NvU32 deviceInstance;            /* out: NV0080_ALLOC_PARAMETERS.deviceId */
    NvU32 subDeviceInstance;
    NvU32 sliStatus;
    NvU32 boardId;
    NvU32 gpuInstance;
    NvS32 numaId;
} NV0000_CTRL_GPU_GET_ID_INFO_V2_PARAMS;"""}),
    ("NV0080_CTRL_GPU_GET_CLASSLIST_PARAMS", {570: """
typedef struct NV0080_CTRL_GPU_GET_CLASSLIST_PARAMS {
    NvU32 numClasses;                /* in: entries of classList (0 to count); out: classes */
    NvP64 classList;                 /* NvU32[numClasses] */
} NV0080_CTRL_GPU_GET_CLASSLIST_PARAMS;"""}),
    ("NV0080_CTRL_GPU_GET_CLASSLIST_V2_PARAMS", {570: """
typedef struct NV0080_CTRL_GPU_GET_CLASSLIST_V2_PARAMS {
    NvU32 numClasses;
    NvU32 classList[100];            /* NV0080_CTRL_GPU_CLASSLIST_MAX_SIZE before 580 */
} NV0080_CTRL_GPU_GET_CLASSLIST_V2_PARAMS;""", 580: """
typedef struct NV0080_CTRL_GPU_GET_CLASSLIST_V2_PARAMS {
    NvU32 numClasses;
    NvU32 classList[200];            /* NV0080_CTRL_GPU_CLASSLIST_MAX_SIZE from 580 */
} NV0080_CTRL_GPU_GET_CLASSLIST_V2_PARAMS;"""}),
    ("NVXXXX_CTRL_XXX_INFO", {570: """
typedef struct NVXXXX_CTRL_XXX_INFO {    /* one {index, data} pair of the *_GET_INFO lists */
    NvU32 index;
    NvU32 data;
} NVXXXX_CTRL_XXX_INFO;
typedef NVXXXX_CTRL_XXX_INFO NV0080_CTRL_GR_INFO;
typedef NV0080_CTRL_GR_INFO NV2080_CTRL_GR_INFO;
typedef NVXXXX_CTRL_XXX_INFO NV2080_CTRL_FB_INFO;"""}),
    ("NV0080_CTRL_GR_ROUTE_INFO", {570: """
typedef struct NV0080_CTRL_GR_ROUTE_INFO {   /* which GR engine (SMC partitions); 0 = the default */
    NvU32 flags;
    NvU64 route;
} NV0080_CTRL_GR_ROUTE_INFO;
typedef NV0080_CTRL_GR_ROUTE_INFO NV2080_CTRL_GR_ROUTE_INFO;"""}),
    ("NV2080_CTRL_GR_GET_INFO_PARAMS", {570: """
typedef struct NV2080_CTRL_GR_GET_INFO_PARAMS {
    NvU32 grInfoListSize;            /* entries at grInfoList, at most NV2080_CTRL_GR_INFO_MAX_SIZE */
    NvP64 grInfoList;                /* NV2080_CTRL_GR_INFO[]: in index, out data */
    NV2080_CTRL_GR_ROUTE_INFO grRouteInfo;
} NV2080_CTRL_GR_GET_INFO_PARAMS;"""}),
    ("NV2080_CTRL_GR_GET_GPC_MASK_PARAMS", {570: """
typedef struct NV2080_CTRL_GR_GET_GPC_MASK_PARAMS {
    NV2080_CTRL_GR_ROUTE_INFO grRouteInfo;
    NvU32 gpcMask;                   /* out: one bit per enabled GPC */
} NV2080_CTRL_GR_GET_GPC_MASK_PARAMS;"""}),
    ("NV2080_CTRL_GPU_GET_GID_INFO_PARAMS", {570: """
typedef struct NV2080_CTRL_GPU_GET_GID_INFO_PARAMS {
    NvU32 index;
    NvU32 flags;                     /* NV2080_GPU_CMD_GPU_GET_GID_FLAGS_* */
    NvU32 length;                    /* out: bytes of data */
    NvU8  data[256];
} NV2080_CTRL_GPU_GET_GID_INFO_PARAMS;"""}),
    ("NV2080_CTRL_FB_GET_INFO_V2_PARAMS", {570: """
typedef struct NV2080_CTRL_FB_GET_INFO_V2_PARAMS {
    NvU32               fbInfoListSize;
    NV2080_CTRL_FB_INFO fbInfoList[57];      /* NV2080_CTRL_FB_INFO_MAX_LIST_SIZE 0x39 before 580 */
} NV2080_CTRL_FB_GET_INFO_V2_PARAMS;""", 580: """
typedef struct NV2080_CTRL_FB_GET_INFO_V2_PARAMS {
    NvU32               fbInfoListSize;
    NV2080_CTRL_FB_INFO fbInfoList[128];     /* NV2080_CTRL_FB_INFO_MAX_LIST_SIZE 0x80 from 580 */
} NV2080_CTRL_FB_GET_INFO_V2_PARAMS;"""}),
    ("NV2080_CTRL_FB_FLUSH_GPU_CACHE_PARAMS", {570: """
typedef struct NV2080_CTRL_FB_FLUSH_GPU_CACHE_PARAMS {
    NvU64 addressArray[500];
    NvU32 addressArraySize;
    NvU32 addressAlign;
    NvU64 memBlockSizeBytes;
    NvU32 flags;                     /* NV2080_CTRL_FB_FLUSH_GPU_CACHE_FLAGS_* */
} NV2080_CTRL_FB_FLUSH_GPU_CACHE_PARAMS;"""}),
    ("NV2080_CTRL_MC_GET_ARCH_INFO_PARAMS", {570: """
typedef struct NV2080_CTRL_MC_GET_ARCH_INFO_PARAMS {
    NvU32 architecture;              /* NV2080_CTRL_MC_ARCH_INFO_ARCHITECTURE_* */
    NvU32 implementation;            /* NV2080_CTRL_MC_ARCH_INFO_IMPLEMENTATION_* */
    NvU32 revision;
    NvU8  subRevision;
} NV2080_CTRL_MC_GET_ARCH_INFO_PARAMS;"""}),
    ("NVC36F_CTRL_CMD_GPFIFO_GET_WORK_SUBMIT_TOKEN_PARAMS", {570: """
typedef struct NVC36F_CTRL_CMD_GPFIFO_GET_WORK_SUBMIT_TOKEN_PARAMS {
    NvU32 workSubmitToken;
} NVC36F_CTRL_CMD_GPFIFO_GET_WORK_SUBMIT_TOKEN_PARAMS;"""}),
    ("NVA06F_CTRL_GPFIFO_SCHEDULE_PARAMS", {570: """
typedef struct NVA06F_CTRL_GPFIFO_SCHEDULE_PARAMS {    /* 2 bytes before 575 */
    NvBool bEnable;
    NvBool bSkipSubmit;
} NVA06F_CTRL_GPFIFO_SCHEDULE_PARAMS;
typedef NVA06F_CTRL_GPFIFO_SCHEDULE_PARAMS NVA06C_CTRL_GPFIFO_SCHEDULE_PARAMS;""", 575: """
typedef struct NVA06F_CTRL_GPFIFO_SCHEDULE_PARAMS {    /* 3 bytes from 575 */
    NvBool bEnable;
    NvBool bSkipSubmit;
    NvBool bSkipEnable;              /* (575) */
} NVA06F_CTRL_GPFIFO_SCHEDULE_PARAMS;
typedef NVA06F_CTRL_GPFIFO_SCHEDULE_PARAMS NVA06C_CTRL_GPFIFO_SCHEDULE_PARAMS;"""}),

    ("NV83DE_SM_ERROR_STATE_REGISTERS", {570: """
typedef struct NV83DE_SM_ERROR_STATE_REGISTERS {
    NvU32 hwwGlobalEsr;
    NvU32 hwwWarpEsr;
    NvU32 hwwWarpEsrPc;
    NvU32 hwwGlobalEsrReportMask;
    NvU32 hwwWarpEsrReportMask;
    NvU64 hwwEsrAddr;
    NvU64 hwwWarpEsrPc64;
    NvU32 hwwCgaEsr;
    NvU32 hwwCgaEsrReportMask;
} NV83DE_SM_ERROR_STATE_REGISTERS;"""}),
    ("NV83DE_MMU_FAULT_INFO", {570: """
typedef struct NV83DE_MMU_FAULT_INFO {
    NvBool valid;
    NvU32  faultInfo;
} NV83DE_MMU_FAULT_INFO;"""}),
    ("NV83DE_CTRL_DEBUG_READ_ALL_SM_ERROR_STATES_PARAMS", {570: """
typedef struct NV83DE_CTRL_DEBUG_READ_ALL_SM_ERROR_STATES_PARAMS {
    NvHandle              hTargetChannel;
    NvU32                 numSMsToRead;
    NV83DE_SM_ERROR_STATE_REGISTERS smErrorStateArray[100];   /* [NV83DE_CTRL_DEBUG_MAX_SMS_PER_CALL] */
    NvU32                 mmuFaultInfo;
    NV83DE_MMU_FAULT_INFO mmuFault;
    NvU32                 startingSM;
} NV83DE_CTRL_DEBUG_READ_ALL_SM_ERROR_STATES_PARAMS;"""}),
    ("NV83DE_CTRL_DEBUG_READ_MMU_FAULT_INFO_ENTRY", {570: """
typedef struct NV83DE_CTRL_DEBUG_READ_MMU_FAULT_INFO_ENTRY {
    NvU64 faultAddress;
    NvU32 faultType;
    NvU32 accessType;
} NV83DE_CTRL_DEBUG_READ_MMU_FAULT_INFO_ENTRY;"""}),
    ("NV83DE_CTRL_DEBUG_READ_MMU_FAULT_INFO_PARAMS", {570: """
typedef struct NV83DE_CTRL_DEBUG_READ_MMU_FAULT_INFO_PARAMS {
    NV83DE_CTRL_DEBUG_READ_MMU_FAULT_INFO_ENTRY mmuFaultInfoList[4];   /* [..._MAX_ENTRIES] */
    NvU32 count;
} NV83DE_CTRL_DEBUG_READ_MMU_FAULT_INFO_PARAMS;"""}),

    # ---- UVM (uvm_ioctl.h, uvm_linux_ioctl.h, uvm_types.h, nvCpuUuid.h) --------------------------
    ("NvUuid", {570: """
typedef struct {
    NvU8 uuid[16];
} NvUuid;
typedef NvUuid NvProcessorUuid;"""}),
    ("UvmGpuMappingAttributes", {570: """
typedef struct {
    NvProcessorUuid gpuUuid;
    NvU32 gpuMappingType;            /* UvmGpuMappingType* */
    NvU32 gpuCachingType;            /* UvmGpuCachingType* */
    NvU32 gpuFormatType;
    NvU32 gpuElementBits;
    NvU32 gpuCompressionType;
} UvmGpuMappingAttributes;"""}),
    ("UVM_INITIALIZE_PARAMS", {570: """
typedef struct {
    NvU64     flags;                 /* UVM_INIT_FLAGS_* */
    NV_STATUS rmStatus;
} UVM_INITIALIZE_PARAMS;"""}),
    ("UVM_MM_INITIALIZE_PARAMS", {570: """
typedef struct {
    NvS32     uvmFd;                 /* the initialized UVM fd this one mirrors */
    NV_STATUS rmStatus;
} UVM_MM_INITIALIZE_PARAMS;"""}),
    ("UVM_PAGEABLE_MEM_ACCESS_PARAMS", {570: """
typedef struct {
    NvBool    pageableMemAccess;     /* out: GPUs can access pageable host memory (HMM/ATS) */
    NV_STATUS rmStatus;
} UVM_PAGEABLE_MEM_ACCESS_PARAMS;"""}),
    ("UVM_REGISTER_GPU_PARAMS", {570: """
typedef struct {
    NvProcessorUuid gpu_uuid;        /* binary UUID (GPU_GET_GID_INFO, FORMAT_BINARY) */
    NvBool          numaEnabled;
    NvS32           numaNodeId;
    NvS32           rmCtrlFd;        /* -1, or the client's /dev/nvidiactl fd */
    NvHandle        hClient;
    NvHandle        hSmcPartRef;
    NV_STATUS       rmStatus;
} UVM_REGISTER_GPU_PARAMS;"""}),
    ("UVM_UNREGISTER_GPU_PARAMS", {570: """
typedef struct {
    NvProcessorUuid gpu_uuid;
    NV_STATUS       rmStatus;
} UVM_UNREGISTER_GPU_PARAMS;"""}),
    ("UVM_REGISTER_GPU_VASPACE_PARAMS", {570: """
typedef struct {
    NvProcessorUuid gpuUuid;
    NvS32           rmCtrlFd;
    NvHandle        hClient;
    NvHandle        hVaSpace;        /* a FERMI_VASPACE_A */
    NV_STATUS       rmStatus;
} UVM_REGISTER_GPU_VASPACE_PARAMS;"""}),
    ("UVM_UNREGISTER_GPU_VASPACE_PARAMS", {570: """
typedef struct {
    NvProcessorUuid gpuUuid;
    NV_STATUS       rmStatus;
} UVM_UNREGISTER_GPU_VASPACE_PARAMS;"""}),
    ("UVM_REGISTER_CHANNEL_PARAMS", {570: """
typedef struct {
    NvProcessorUuid gpuUuid;
    NvS32           rmCtrlFd;
    NvHandle        hClient;
    NvHandle        hChannel;
    NvU64           base;            /* a VA range UVM may use for the channel's buffers */
    NvU64           length;
    NV_STATUS       rmStatus;
} UVM_REGISTER_CHANNEL_PARAMS;"""}),
    ("UVM_UNREGISTER_CHANNEL_PARAMS", {570: """
typedef struct {
    NvProcessorUuid gpuUuid;         /* dropped in 590 */
    NvHandle        hClient;
    NvHandle        hChannel;
    NV_STATUS       rmStatus;
} UVM_UNREGISTER_CHANNEL_PARAMS;""", 590: """
typedef struct {
    NvHandle        hClient;
    NvHandle        hChannel;
    NV_STATUS       rmStatus;
} UVM_UNREGISTER_CHANNEL_PARAMS;"""}),
    ("UVM_ENABLE_PEER_ACCESS_PARAMS", {570: """
typedef struct {
    NvProcessorUuid gpuUuidA;
    NvProcessorUuid gpuUuidB;
    NV_STATUS       rmStatus;
} UVM_ENABLE_PEER_ACCESS_PARAMS;"""}),
    ("UVM_DISABLE_PEER_ACCESS_PARAMS", {570: """
typedef struct {
    NvProcessorUuid gpuUuidA;
    NvProcessorUuid gpuUuidB;
    NV_STATUS       rmStatus;
} UVM_DISABLE_PEER_ACCESS_PARAMS;"""}),
    ("UVM_CREATE_EXTERNAL_RANGE_PARAMS", {570: """
typedef struct {
    NvU64     base;
    NvU64     length;
    NV_STATUS rmStatus;
} UVM_CREATE_EXTERNAL_RANGE_PARAMS;"""}),
    ("UVM_MAP_EXTERNAL_ALLOCATION_PARAMS", {570: """
typedef struct {
    NvU64                   base;
    NvU64                   length;
    NvU64                   offset;
    UvmGpuMappingAttributes perGpuAttributes[256];  /* [UVM_MAX_GPUS] */
    NvU64                   gpuAttributesCount;
    NvS32                   rmCtrlFd;
    NvU32                   hClient;
    NvU32                   hMemory;
    NV_STATUS               rmStatus;
} UVM_MAP_EXTERNAL_ALLOCATION_PARAMS;"""}),
    ("UVM_FREE_PARAMS", {570: """
typedef struct {
    NvU64     base;
    NvU64     length;                /* dropped in 590 */
    NV_STATUS rmStatus;
} UVM_FREE_PARAMS;""", 590: """
typedef struct {
    NvU64     base;
    NV_STATUS rmStatus;
} UVM_FREE_PARAMS;"""}),
]


def variant(variants, branch):
    """The declaration a branch uses: the newest one introduced at or before it."""
    usable = [since for since in variants if since <= branch]
    return variants[max(usable)] if usable else None


def cdef_for(branch):
    """The whole cdef for one driver branch."""
    parts = [TYPES]
    for _, variants in BLOCKS:
        text = variant(variants, branch)
        if text is not None:
            parts.append(text)
    return "\n".join(parts)


def changes():
    """{struct: [branches where its layout changed]}, for the structs that ever changed."""
    return {name: sorted(v)[1:] for name, v in BLOCKS if len(v) > 1}
