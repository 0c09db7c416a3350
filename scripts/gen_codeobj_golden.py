#!/usr/bin/env python3
"""Freeze llvm-mc-19 / llvm-readelf-19 / llvm-objdump-19 verdicts for the code object tests.

    python3 scripts/gen_codeobj_golden.py     (also run by scripts/build_codeobj_fixtures.sh)

Writes into tests/data/codeobj/:
  kd_golden.json        .amdhsa_kernel blocks -> llvm-mc-19's 64 descriptor bytes (or its error)
  handwritten.program.json   llvm-mc-19's .text bytes and label offsets for handwritten.s
  handwritten.lld.hsaco      llvm-mc-19 + ld.lld-19's code object for handwritten.s
  ours_NAME.hsaco       our writer's code object for the clang fixture NAME (code from NAME.hsaco,
                        directives and metadata from NAME.s)
  ours_NAME.readelf.txt llvm-readelf-19 -h -S -l -s --notes of it (stderr must be empty)
  ours_NAME.disasm.txt  llvm-objdump-19 -d without addresses (must equal NAME.disasm.txt)
  ours_NAME.kd.txt      llvm-objdump-19 -D --disassemble-symbols=KERNEL.kd for each kernel
"""
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, ROOT)
DATA = os.path.join(ROOT, "tests", "data", "codeobj")

from tests.test_amdgpu_codeobj_support import WRITER_FIXTURES, fixture_program  # noqa: E402
from assembler.amdgpu.codeobject import build_code_object  # noqa: E402


_V = "  .amdhsa_next_free_vgpr 9\n  .amdhsa_next_free_sgpr 5\n"


def _block(*lines, base=_V):
    return ".amdhsa_kernel k\n" + base + "".join(f"  {line}\n" for line in lines) + ".end_amdhsa_kernel"


# (target, .amdhsa_kernel block): defaults, every supported directive, and the errors.
KD_CASES = [
    ("gfx1100", _block(base="  .amdhsa_next_free_vgpr 4\n  .amdhsa_next_free_sgpr 16\n")),
    ("gfx1100", _block(".amdhsa_user_sgpr_count 15", ".amdhsa_user_sgpr_kernarg_segment_ptr 1",
                       ".amdhsa_kernarg_size 20", ".amdhsa_float_denorm_mode_32 3", ".amdhsa_reserve_vcc 1")),
    ("gfx1100", _block(".amdhsa_user_sgpr_dispatch_ptr 1", ".amdhsa_user_sgpr_queue_ptr 1",
                       ".amdhsa_user_sgpr_kernarg_segment_ptr 1", ".amdhsa_user_sgpr_dispatch_id 1",
                       ".amdhsa_user_sgpr_private_segment_size 1")),
    ("gfx1100", _block(".amdhsa_system_sgpr_workgroup_id_x 0", ".amdhsa_system_sgpr_workgroup_id_y 1",
                       ".amdhsa_system_sgpr_workgroup_id_z 1", ".amdhsa_system_sgpr_workgroup_info 1",
                       ".amdhsa_system_vgpr_workitem_id 2")),
    ("gfx1100", _block(".amdhsa_group_segment_fixed_size 65536", ".amdhsa_private_segment_fixed_size 0x10",
                       ".amdhsa_enable_private_segment 1", ".amdhsa_uses_dynamic_stack 1",
                       ".amdhsa_kernarg_size 2+30")),
    ("gfx1100", _block(".amdhsa_float_round_mode_32 1", ".amdhsa_float_round_mode_16_64 2",
                       ".amdhsa_float_denorm_mode_32 3", ".amdhsa_float_denorm_mode_16_64 0",
                       ".amdhsa_dx10_clamp 0", ".amdhsa_ieee_mode 0", ".amdhsa_fp16_overflow 1")),
    ("gfx1100", _block(".amdhsa_workgroup_processor_mode 0", ".amdhsa_memory_ordered 0",
                       ".amdhsa_forward_progress 1", ".amdhsa_shared_vgpr_count 15")),
    ("gfx1100", _block(".amdhsa_exception_fp_ieee_invalid_op 1", ".amdhsa_exception_fp_denorm_src 1",
                       ".amdhsa_exception_fp_ieee_div_zero 1", ".amdhsa_exception_fp_ieee_overflow 1",
                       ".amdhsa_exception_fp_ieee_underflow 1", ".amdhsa_exception_fp_ieee_inexact 1",
                       ".amdhsa_exception_int_div_zero 1")),
    ("gfx1100", _block(".amdhsa_wavefront_size32 0")),
    ("gfx1100", _block(base="  .amdhsa_next_free_vgpr 256\n  .amdhsa_next_free_sgpr 106\n")),
    ("gfx1100", _block(base="  .amdhsa_next_free_vgpr 512\n  .amdhsa_next_free_sgpr 0\n")),
    ("gfx1100", _block(base="  .amdhsa_next_free_vgpr 0\n  .amdhsa_next_free_sgpr 0\n")),
    ("gfx1100", _block(".amdhsa_user_sgpr_count 31")),
    ("gfx1030", _block()),
    ("gfx1030", _block(".amdhsa_user_sgpr_private_segment_buffer 1", ".amdhsa_user_sgpr_flat_scratch_init 1",
                       ".amdhsa_system_sgpr_private_segment_wavefront_offset 1", ".amdhsa_wavefront_size32 0")),
    ("gfx1101", _block(".amdhsa_user_sgpr_kernarg_segment_ptr 1")),
    ("gfx90a", _block(".amdhsa_accum_offset 12")),
    ("gfx90a", _block(".amdhsa_accum_offset 4", ".amdhsa_reserve_vcc 0", ".amdhsa_reserve_flat_scratch 0",
                      ".amdhsa_tg_split 1", base="  .amdhsa_next_free_vgpr 65\n  .amdhsa_next_free_sgpr 30\n")),
    ("gfx942", _block(".amdhsa_accum_offset 8", ".amdhsa_user_sgpr_kernarg_segment_ptr 1")),
    ("gfx942", _block(".amdhsa_accum_offset 12")),
    ("gfx900", _block(base="  .amdhsa_next_free_vgpr 9\n  .amdhsa_next_free_sgpr 102\n")),
    ("gfx942", _block(".amdhsa_accum_offset 256", ".amdhsa_reserve_vcc 0", ".amdhsa_reserve_xnack_mask 1",
                      base="  .amdhsa_next_free_vgpr 512\n  .amdhsa_next_free_sgpr 100\n")),
    ("gfx1200", _block(".amdhsa_user_sgpr_kernarg_segment_ptr 1", ".amdhsa_wavefront_size32 0")),
    ("gfx1100", _block(".amdhsa_shared_vgpr_count 1", ".amdhsa_wavefront_size32 0",
                       base="  .amdhsa_next_free_vgpr 248\n  .amdhsa_next_free_sgpr 5\n")),
    ("gfx1151", _block(base="  .amdhsa_next_free_vgpr 200\n  .amdhsa_next_free_sgpr 5\n")),
    ("gfx908", _block(".amdhsa_reserve_flat_scratch 0", base="  .amdhsa_next_free_vgpr 100\n  .amdhsa_next_free_sgpr 40\n")),
    ("gfx900", _block(".amdhsa_user_sgpr_private_segment_buffer 1", ".amdhsa_user_sgpr_kernarg_segment_ptr 1")),
    ("gfx942", _block(".amdhsa_accum_offset 4", ".amdhsa_user_sgpr_kernarg_segment_ptr 1",
                      ".amdhsa_user_sgpr_kernarg_preload_length 15", ".amdhsa_user_sgpr_kernarg_preload_offset 511")),
    ("gfx90a", _block(".amdhsa_accum_offset 4", ".amdhsa_user_sgpr_kernarg_preload_length 2",
                      ".amdhsa_user_sgpr_kernarg_preload_offset 1", ".amdhsa_user_sgpr_dispatch_ptr 1")),
    # errors
    ("gfx942", _block(".amdhsa_accum_offset 4", ".amdhsa_user_sgpr_kernarg_preload_length 17")),
    ("gfx942", _block(".amdhsa_accum_offset 4", ".amdhsa_user_sgpr_kernarg_preload_offset 512")),
    ("gfx942", _block(".amdhsa_accum_offset 4", ".amdhsa_user_sgpr_count 2", ".amdhsa_user_sgpr_kernarg_segment_ptr 1",
                      ".amdhsa_user_sgpr_kernarg_preload_length 2")),
    ("gfx1100", _block(".amdhsa_user_sgpr_kernarg_preload_length 1")),
    ("gfx1100", _block(".amdhsa_shared_vgpr_count 3", ".amdhsa_wavefront_size32 1")),
    ("gfx942", _block(".amdhsa_accum_offset 16")),
    ("gfx942", _block(".amdhsa_accum_offset 4", base="  .amdhsa_next_free_vgpr 9\n  .amdhsa_next_free_sgpr 103\n")),
    ("gfx900", _block(base="  .amdhsa_next_free_vgpr 9\n  .amdhsa_next_free_sgpr 103\n")),
    ("gfx1030", _block(".amdhsa_shared_vgpr_count 1", base="  .amdhsa_next_free_vgpr 512\n  .amdhsa_next_free_sgpr 5\n")),
    ("gfx1200", _block(".amdhsa_ieee_mode 0")),
    ("gfx1100", _block(".amdhsa_foo 1")),
    ("gfx1100", _block(".amdhsa_ieee_mode 2")),
    ("gfx1100", _block(".amdhsa_float_denorm_mode_32 4")),
    ("gfx1100", _block(".amdhsa_shared_vgpr_count 16")),
    ("gfx1100", _block(".amdhsa_group_segment_fixed_size 0x100000000")),
    ("gfx1100", _block(".amdhsa_group_segment_fixed_size -1")),
    ("gfx1100", _block(".amdhsa_next_free_sgpr 5")),
    ("gfx1100", _block(".amdhsa_user_sgpr_count 1", ".amdhsa_user_sgpr_kernarg_segment_ptr 1")),
    ("gfx1100", _block(".amdhsa_user_sgpr_count 32")),
    ("gfx1100", _block(".amdhsa_user_sgpr_private_segment_buffer 1")),
    ("gfx1100", _block(".amdhsa_system_sgpr_private_segment_wavefront_offset 1")),
    ("gfx1100", _block(".amdhsa_reserve_xnack_mask 1")),
    ("gfx1100", _block(".amdhsa_accum_offset 4")),
    ("gfx1100", _block(".amdhsa_ieee_mode abc")),
    ("gfx1100", _block(".amdhsa_ieee_mode")),
    ("gfx1100", _block("s_nop 0")),
    ("gfx1100", _block(base="  .amdhsa_next_free_vgpr 513\n  .amdhsa_next_free_sgpr 5\n")),
    ("gfx1100", _block(base="  .amdhsa_next_free_vgpr 4\n")),
    ("gfx1100", _block(base="  .amdhsa_next_free_sgpr 4\n")),
    ("gfx1030", _block(".amdhsa_enable_private_segment 1")),
    ("gfx90a", _block(".amdhsa_wavefront_size32 1", ".amdhsa_accum_offset 4")),
    ("gfx90a", _block(".amdhsa_accum_offset 6")),
    ("gfx90a", _block()),
]


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def llvm_mc_kd(target, block):
    """llvm-mc-19's descriptor bytes (hex) for `block`, or its first error line."""
    from elftools.elf.elffile import ELFFile
    src = ".text\n.p2align 8\nk:\n  s_endpgm\n.rodata\n.p2align 6\n" + block + "\n"
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, "k.s"), "w") as f:
            f.write(src)
        r = run(["llvm-mc-19", "-triple=amdgcn-amd-amdhsa", f"-mcpu={target}", "-filetype=obj",
                 "k.s", "-o", "k.o"], cwd=tmp)
        if r.returncode:
            first = next(line for line in r.stderr.splitlines() if "error:" in line)
            where, msg = first.split(" error: ", 1)
            parts = where.rstrip(":").split(":")
            if parts[0] != "k.s":          # e.g. "<unknown>:0:" for an unresolvable symbol
                return {"error_line": None, "error_column": None, "error": msg.strip()}
            return {"error_line": int(parts[1]) - 6, "error_column": int(parts[2]), "error": msg.strip()}
        with open(os.path.join(tmp, "k.o"), "rb") as f:
            return {"kd": ELFFile(f).get_section_by_name(".rodata").data().hex()}


def freeze_handwritten():
    from elftools.elf.elffile import ELFFile
    with tempfile.TemporaryDirectory() as tmp:
        obj = os.path.join(tmp, "handwritten.o")
        r = run(["llvm-mc-19", "-triple=amdgcn-amd-amdhsa", "-mcpu=gfx1100", "-filetype=obj",
                 os.path.join(DATA, "handwritten.s"), "-o", obj])
        if r.returncode:
            sys.exit(r.stderr)
        with open(obj, "rb") as f:
            elf = ELFFile(f)
            text = elf.get_section_by_name(".text").data()
            labels = {s.name: s["st_value"] for s in elf.get_section_by_name(".symtab").iter_symbols()
                      if s["st_info"]["type"] == "STT_FUNC"}
        r = run(["ld.lld-19", "-shared", obj, "-o", os.path.join(DATA, "handwritten.lld.hsaco")])
        if r.returncode:
            sys.exit(r.stderr)
    with open(os.path.join(DATA, "handwritten.program.json"), "w") as f:
        json.dump({"generator": "scripts/gen_codeobj_golden.py (llvm-mc-19)", "text": text.hex(),
                   "labels": labels}, f, indent=1)
        f.write("\n")


def main():
    freeze_handwritten()
    cases = []
    for target, block in KD_CASES:
        cases.append({"target": target, "block": block, **llvm_mc_kd(target, block)})
    with open(os.path.join(DATA, "kd_golden.json"), "w") as f:
        json.dump({"generator": "scripts/gen_codeobj_golden.py (llvm-mc-19)", "cases": cases}, f, indent=1)
        f.write("\n")
    print(f"kd_golden.json: {len(cases)} cases")
    for name in WRITER_FIXTURES:
        program, source_text, kernels = fixture_program(name)
        path = os.path.join(DATA, f"ours_{name}.hsaco")
        with open(path, "wb") as f:
            f.write(build_code_object(program, source_text))
        r = run(["llvm-readelf-19", "-h", "-S", "-l", "-s", "--notes", path])
        if r.returncode or r.stderr:
            sys.exit(f"llvm-readelf-19 complains about {path}: {r.stderr}")
        with open(os.path.join(DATA, f"ours_{name}.readelf.txt"), "w") as f:
            f.write(r.stdout.replace(path, f"ours_{name}.hsaco"))
        r = run(["llvm-objdump-19", "-d", "--no-show-raw-insn", "--no-leading-addr", path])
        if r.returncode or r.stderr:
            sys.exit(f"llvm-objdump-19 -d complains about {path}: {r.stderr}")
        with open(os.path.join(DATA, f"ours_{name}.disasm.txt"), "w") as f:
            f.write(r.stdout.split("Disassembly", 1)[1].split("\n", 1)[1])
        kd_text = ""
        for kernel in kernels:
            r = run(["llvm-objdump-19", "-D", f"--disassemble-symbols={kernel}.kd", path])
            if r.returncode or r.stderr:
                sys.exit(f"llvm-objdump-19 cannot decode {kernel}.kd: {r.stderr}")
            kd_text += r.stdout.split("Disassembly", 1)[1].split("\n", 1)[1]
        with open(os.path.join(DATA, f"ours_{name}.kd.txt"), "w") as f:
            f.write(kd_text)
        print(f"ours_{name}.hsaco: accepted by llvm-readelf-19 and llvm-objdump-19")


if __name__ == "__main__":
    main()
