"""The NVIDIA kernel interface (RM escapes on /dev/nvidiactl and /dev/nvidiaN, UVM on /dev/nvidia-uvm)
for Python, through cffi in ABI mode, for several driver branches.

    import nv_ioctl
    L = nv_ioctl.layouts_for_version("580.95.05")        # UnknownBranch for a branch without layouts
    args = L.new("NVOS54_PARAMETERS", hClient=h, hObject=h, cmd=nv_ioctl.NV0000_CTRL_CMD_GPU_GET_ATTACHED_IDS)
    request = L.request("NV_ESC_RM_CONTROL")              # _IOWR('F', 0x2A, 32)

- `layouts(branch)` / `layouts_for_version(text)`: a `Layouts` per branch (570, 575, 580, 590, 595):
  every struct under its header typedef name (`new`, `sizeof`, `offsetof`), each escape's request
  (`request`, `escape`), UVM commands (`uvm`), controls (`control(cmd)`) and the constants whose value
  depends on the branch (list sizes).
- Every escape number, class id, control id, flag and limit as a plain int by its C name
  (NV_ESC_RM_ALLOC, AMPERE_COMPUTE_B, NV2080_CTRL_CMD_GR_GET_INFO...), the same in every branch;
  DRF bit ranges (`31:30` in C) as `Field`s.
- `Layouts.status_name(code)`: the NV_STATUS name of an RM/UVM status in that branch
  (NV_ERR_INVALID_ARGUMENT...); codes are not quite stable across branches (595 renumbered one).

Checked against NVIDIA's own headers compiled by gcc, per branch (tests/test_nv_ioctl.py).
"""
from .classes import *  # noqa: F401,F403
from .constants import *  # noqa: F401,F403
from .controls import *  # noqa: F401,F403
from .drf import Field  # noqa: F401
from .flags import *  # noqa: F401,F403
from .methods import *  # noqa: F401,F403
from .methods import load_inline_qmd_data, push_header  # noqa: F401
from .ioc import _IOC, _IOC_DIR, _IOC_NR, _IOC_SIZE, _IOC_SIZEMASK, _IOC_TYPE, _IOWR  # noqa: F401
from .layouts import (BRANCH_CONSTANTS, BRANCHES, CONSTANTS, RANGES, Control, DriverVersion,  # noqa: F401
                      Escape, Layouts, UnknownBranch, UvmIoctl, known_branches, layouts,
                      layouts_for_version, parse_driver_version)
from .status import STATUS_CODES  # noqa: F401
from .tables import CLASS_PARAMS, CONTROLS, CTL, ESCAPES, GPU, UVM_IOCTLS, class_name, control_name  # noqa: F401

NV_OK = 0                     # the one status every branch agrees on, and the only success
