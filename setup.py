from setuptools import find_packages, setup

setup(
    name="gpustack",
    version="0.1.0",
    description="Userspace GPU drivers (amdkfd, NVIDIA RM/UVM, KGSL) in pure Python, with ISA "
                "assemblers, a virtual GPU and a small tensor runtime; no vendor SDK at run time.",
    long_description=open("README.md").read() if __import__("os").path.exists("README.md") else "",
    long_description_content_type="text/markdown",
    python_requires=">=3.11",
    packages=find_packages(include=["drivers", "drivers.*", "kfd_ioctl", "kfd_ioctl.*", "kgsl_ioctl",
                                    "kgsl_ioctl.*", "nv_ioctl", "nv_ioctl.*", "assembler",
                                    "assembler.*", "tensor", "tensor.*", "hw_tests", "hw_tests.*"]),
    include_package_data=True,
    package_data={"": ["*.txt", "*.json"], "hw_tests": ["kernels/*.s", "kernels/ir3/*.asm"]},   # bring-up kernel sources
    install_requires=["cffi>=1.15", "numpy>=1.24", "pyelftools>=0.29", "capstone>=5.0"],
    extras_require={"test": ["pytest>=7", "autograd>=1.6", "safetensors>=0.4", "scikit-learn>=1.0"],
                    "examples": ["scikit-learn>=1.0"]},
    entry_points={"pytest11": ["hw_tests.plugin = hw_tests.plugin"]},    # pytest --pyargs hw_tests --emulate ...
)
