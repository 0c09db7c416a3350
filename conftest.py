"""pytest configuration for the whole repository.

* Loads the bring-up suite's plugin (``--device`` / ``--emulate``), so ``pytest hw_tests
  --emulate gfx1100`` works from any directory of the checkout (an installed package registers the
  same plugin through its pytest11 entry point).
* Ends the test summary with one line naming the test oracles that are not installed and how many
  tests skipped for want of them (see README, "Test oracles").
"""
import importlib.util
import shutil

pytest_plugins = ["hw_tests.plugin"]

# oracle -> what installs it; tools are looked up on PATH, Python modules by import name
ORACLE_TOOLS = {
    "llvm-mc-19": "llvm-19", "llvm-objdump-19": "llvm-19", "llvm-readelf-19": "llvm-19", "llvm-objcopy-19": "llvm-19",
    "clang-19": "clang-19", "ld.lld-19": "lld-19", "gcc": "gcc", "aarch64-linux-gnu-gcc": "gcc-aarch64-linux-gnu",
}
ORACLE_MODULES = {"tinymesa": "tinymesa"}
# NVIDIA's tools from their PyPI wheels (found on PATH or in site-packages/nvidia/*/bin)
ORACLE_NV_TOOLS = {"nvdisasm": "nvidia-cuda-nvdisasm", "cuobjdump": "nvidia-cuda-cuobjdump",
                   "ptxas": "nvidia-cuda-nvcc"}


def _nv_tool(name):
    import glob
    import os
    import site
    if shutil.which(name):
        return True
    for base in site.getsitepackages() + [site.getusersitepackages()]:
        if glob.glob(os.path.join(base, "nvidia", "*", "bin", name)):
            return True
    return False


def missing_oracles():
    """{oracle: package} of the oracles this machine lacks."""
    missing = {tool: pkg for tool, pkg in ORACLE_TOOLS.items() if shutil.which(tool) is None}
    missing.update({mod: pkg for mod, pkg in ORACLE_MODULES.items() if importlib.util.find_spec(mod) is None})
    missing.update({tool: pkg for tool, pkg in ORACLE_NV_TOOLS.items() if not _nv_tool(tool)})
    return missing


def pytest_terminal_summary(terminalreporter):
    missing = missing_oracles()
    if not missing:
        return
    skipped = 0
    for report in terminalreporter.stats.get("skipped", []):
        reason = str(report.longrepr[2] if isinstance(report.longrepr, tuple) else report.longrepr)
        if any(name in reason or pkg in reason for name, pkg in missing.items()):
            skipped += 1
    apt = sorted({pkg for name, pkg in missing.items() if name in ORACLE_TOOLS})
    pip = sorted({pkg for name, pkg in missing.items() if name in ORACLE_MODULES or name in ORACLE_NV_TOOLS})
    how = " and ".join(filter(None, [f"apt-get install {' '.join(apt)}" if apt else "",
                                     f"pip install {' '.join(pip)}" if pip else ""]))
    terminalreporter.write_line(f"oracles not installed: {', '.join(sorted(missing))} ({skipped} tests skipped for "
                                f"them); {how} (README: Test oracles)")
