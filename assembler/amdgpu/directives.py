"""Code object directives of LLVM's AMDGPU assembly syntax, turned into kernel descriptors.

Supported (same spelling, defaults and checks as llvm-mc-19; descriptor bytes verified for
gfx1100, gfx1101, gfx1151, gfx1200, gfx1030, gfx942, gfx90a, gfx908 and gfx900 against
llvm-mc-19 by tests/test_amdgpu_codeobj_directives.py):

* `.amdgcn_target "amdgcn-amd-amdhsa--gfx1100"` and `.amdhsa_code_object_version 5`.
* `.amdhsa_kernel NAME` ... `.end_amdhsa_kernel` with, inside:
  .amdhsa_next_free_vgpr / .amdhsa_next_free_sgpr (required), .amdhsa_reserve_vcc,
  .amdhsa_reserve_flat_scratch, .amdhsa_reserve_xnack_mask, .amdhsa_user_sgpr_count,
  .amdhsa_user_sgpr_{private_segment_buffer, dispatch_ptr, queue_ptr, kernarg_segment_ptr,
  dispatch_id, flat_scratch_init, private_segment_size}, .amdhsa_wavefront_size32,
  .amdhsa_uses_dynamic_stack, .amdhsa_enable_private_segment (architected flat scratch) or
  .amdhsa_system_sgpr_private_segment_wavefront_offset (otherwise),
  .amdhsa_system_sgpr_workgroup_id_x/y/z, .amdhsa_system_sgpr_workgroup_info,
  .amdhsa_system_vgpr_workitem_id, .amdhsa_group_segment_fixed_size,
  .amdhsa_private_segment_fixed_size, .amdhsa_kernarg_size, .amdhsa_float_round_mode_32/16_64,
  .amdhsa_float_denorm_mode_32/16_64, .amdhsa_dx10_clamp, .amdhsa_ieee_mode,
  .amdhsa_fp16_overflow, .amdhsa_workgroup_processor_mode, .amdhsa_memory_ordered,
  .amdhsa_forward_progress, .amdhsa_shared_vgpr_count, .amdhsa_exception_* (7 FP/int enables),
  and on gfx90a-class processors .amdhsa_accum_offset (required), .amdhsa_tg_split and
  .amdhsa_user_sgpr_kernarg_preload_length/_offset (preloaded SGPRs count as user SGPRs).
  Values are integer expressions (expr.py).
* `.amdgpu_metadata` ... `.end_amdgpu_metadata`: the YAML LLVM writes (yaml_subset.py).

Every problem raises AssemblerError with the line, the column and the directive's name.
"""
import re
from dataclasses import dataclass, field

from assembler.errors import AssemblerError

from .expr import ExprError, evaluate
from .kernel_descriptor import (COMPUTE_PGM_RSRC1, COMPUTE_PGM_RSRC2, COMPUTE_PGM_RSRC3_GFX10_GFX11,
                                COMPUTE_PGM_RSRC3_GFX90A, KERNEL_CODE_PROPERTIES, KernelDescriptor,
                                granulated_wavefront_sgpr_count, granulated_workitem_vgpr_count,
                                implied_user_sgpr_count, set_bits)
from .targets import parse_target
from .yaml_subset import YAMLError, parse_yaml

DEFAULT_TARGET = "gfx1100"
SUPPORTED_CODE_OBJECT_VERSION = 5


def _gfx10_plus(t):
    return None if t.major >= 10 else "directive requires gfx10+"


def _before_gfx12(t):
    return None if t.major < 12 else "directive unsupported on gfx12+"


def _gfx90a_class(t):
    return None if t.gfx90a_class else "directive requires gfx90a+"


def _architected_fs(t):
    return None if t.architected_flat_scratch else "directive is not supported without architected flat scratch"


def _not_architected_fs(t):
    return None if not t.architected_flat_scratch else "directive is not supported with architected flat scratch"


def _gfx10_11(t):
    return None if 10 <= t.major <= 11 else "directive requires gfx10 or gfx11"


def _any(t):
    return None


_R1, _R2, _P = "compute_pgm_rsrc1", "compute_pgm_rsrc2", "kernel_code_properties"

# directive -> (where the value goes, bit field or None, width, target requirement)
_BITS = {
    ".amdhsa_user_sgpr_private_segment_buffer": (_P, "ENABLE_SGPR_PRIVATE_SEGMENT_BUFFER", _not_architected_fs),
    ".amdhsa_user_sgpr_dispatch_ptr": (_P, "ENABLE_SGPR_DISPATCH_PTR", _any),
    ".amdhsa_user_sgpr_queue_ptr": (_P, "ENABLE_SGPR_QUEUE_PTR", _any),
    ".amdhsa_user_sgpr_kernarg_segment_ptr": (_P, "ENABLE_SGPR_KERNARG_SEGMENT_PTR", _any),
    ".amdhsa_user_sgpr_dispatch_id": (_P, "ENABLE_SGPR_DISPATCH_ID", _any),
    ".amdhsa_user_sgpr_flat_scratch_init": (_P, "ENABLE_SGPR_FLAT_SCRATCH_INIT", _not_architected_fs),
    ".amdhsa_user_sgpr_private_segment_size": (_P, "ENABLE_SGPR_PRIVATE_SEGMENT_SIZE", _any),
    ".amdhsa_wavefront_size32": (_P, "ENABLE_WAVEFRONT_SIZE32", _gfx10_plus),
    ".amdhsa_uses_dynamic_stack": (_P, "USES_DYNAMIC_STACK", _any),
    ".amdhsa_enable_private_segment": (_R2, "ENABLE_PRIVATE_SEGMENT", _architected_fs),
    ".amdhsa_system_sgpr_private_segment_wavefront_offset": (_R2, "ENABLE_PRIVATE_SEGMENT", _not_architected_fs),
    ".amdhsa_system_sgpr_workgroup_id_x": (_R2, "ENABLE_SGPR_WORKGROUP_ID_X", _any),
    ".amdhsa_system_sgpr_workgroup_id_y": (_R2, "ENABLE_SGPR_WORKGROUP_ID_Y", _any),
    ".amdhsa_system_sgpr_workgroup_id_z": (_R2, "ENABLE_SGPR_WORKGROUP_ID_Z", _any),
    ".amdhsa_system_sgpr_workgroup_info": (_R2, "ENABLE_SGPR_WORKGROUP_INFO", _any),
    ".amdhsa_system_vgpr_workitem_id": (_R2, "ENABLE_VGPR_WORKITEM_ID", _any),
    ".amdhsa_exception_fp_ieee_invalid_op": (_R2, "ENABLE_EXCEPTION_IEEE_754_FP_INVALID_OPERATION", _any),
    ".amdhsa_exception_fp_denorm_src": (_R2, "ENABLE_EXCEPTION_FP_DENORMAL_SOURCE", _any),
    ".amdhsa_exception_fp_ieee_div_zero": (_R2, "ENABLE_EXCEPTION_IEEE_754_FP_DIVISION_BY_ZERO", _any),
    ".amdhsa_exception_fp_ieee_overflow": (_R2, "ENABLE_EXCEPTION_IEEE_754_FP_OVERFLOW", _any),
    ".amdhsa_exception_fp_ieee_underflow": (_R2, "ENABLE_EXCEPTION_IEEE_754_FP_UNDERFLOW", _any),
    ".amdhsa_exception_fp_ieee_inexact": (_R2, "ENABLE_EXCEPTION_IEEE_754_FP_INEXACT", _any),
    ".amdhsa_exception_int_div_zero": (_R2, "ENABLE_EXCEPTION_INT_DIVIDE_BY_ZERO", _any),
    ".amdhsa_float_round_mode_32": (_R1, "FLOAT_ROUND_MODE_32", _any),
    ".amdhsa_float_round_mode_16_64": (_R1, "FLOAT_ROUND_MODE_16_64", _any),
    ".amdhsa_float_denorm_mode_32": (_R1, "FLOAT_DENORM_MODE_32", _any),
    ".amdhsa_float_denorm_mode_16_64": (_R1, "FLOAT_DENORM_MODE_16_64", _any),
    ".amdhsa_dx10_clamp": (_R1, "ENABLE_DX10_CLAMP", _before_gfx12),
    ".amdhsa_ieee_mode": (_R1, "ENABLE_IEEE_MODE", _before_gfx12),
    ".amdhsa_fp16_overflow": (_R1, "FP16_OVFL", _any),
    ".amdhsa_workgroup_processor_mode": (_R1, "WGP_MODE", _gfx10_plus),
    ".amdhsa_memory_ordered": (_R1, "MEM_ORDERED", _gfx10_plus),
    ".amdhsa_forward_progress": (_R1, "FWD_PROGRESS", _gfx10_plus),
    ".amdhsa_shared_vgpr_count": ("compute_pgm_rsrc3", "SHARED_VGPR_COUNT", _gfx10_11),
    ".amdhsa_tg_split": ("compute_pgm_rsrc3", "TG_SPLIT", _gfx90a_class),
}
# directives whose value is a whole 32-bit KD field, or is checked and used specially
_WORDS = {
    ".amdhsa_group_segment_fixed_size": "group_segment_fixed_size",
    ".amdhsa_private_segment_fixed_size": "private_segment_fixed_size",
    ".amdhsa_kernarg_size": "kernarg_size",
}
_SPECIAL = {
    ".amdhsa_next_free_vgpr": (None, _any), ".amdhsa_next_free_sgpr": (None, _any),
    ".amdhsa_reserve_vcc": (1, _any), ".amdhsa_reserve_flat_scratch": (1, _not_architected_fs),
    ".amdhsa_reserve_xnack_mask": (1, _any), ".amdhsa_user_sgpr_count": (5, _any),
    ".amdhsa_accum_offset": (None, _gfx90a_class),
    ".amdhsa_user_sgpr_kernarg_preload_length": (None, _gfx90a_class),
    ".amdhsa_user_sgpr_kernarg_preload_offset": (9, _gfx90a_class),
}
MAX_KERNARG_PRELOAD_SGPRS = 16
KERNEL_DIRECTIVES = frozenset(_BITS) | frozenset(_WORDS) | frozenset(_SPECIAL)

_FIELD_TABLES = {_R1: COMPUTE_PGM_RSRC1, _R2: COMPUTE_PGM_RSRC2, _P: KERNEL_CODE_PROPERTIES}


def _field(register, name, target):
    if register == "compute_pgm_rsrc3":
        table = COMPUTE_PGM_RSRC3_GFX90A if target.gfx90a_class else COMPUTE_PGM_RSRC3_GFX10_GFX11
        return table[name]
    return _FIELD_TABLES[register][name]


@dataclass
class KernelBlock:
    """One `.amdhsa_kernel` block: its descriptor (entry offset still 0) and register budget."""
    name: str
    line: int
    descriptor: KernelDescriptor
    next_free_vgpr: int
    next_free_sgpr: int
    reserve_vcc: bool
    extra_sgprs: int
    values: dict = field(default_factory=dict)     # directive -> value as given

    @property
    def sgpr_count(self):
        """SGPRs the kernel uses including VCC and other reserved extras (metadata .sgpr_count)."""
        return self.next_free_sgpr + self.extra_sgprs

    @property
    def vgpr_count(self):
        return self.next_free_vgpr


@dataclass
class Directives:
    target: object
    kernels: list
    metadata: object = None
    metadata_line: int = None
    target_line: int = None
    code_object_version: int = None


def _strip_comment(text):
    quote = False
    for i, ch in enumerate(text):
        if ch == '"':
            quote = not quote
        elif not quote and (ch == ";" or text.startswith("//", i)):
            return text[:i]
    return text


def _split(text):
    """(directive, operand text, operand column, directive column) of a directive line."""
    match = re.match(r"(\s*)(\S*)\s*(.*?)\s*$", _strip_comment(text))
    name_col = len(match.group(1)) + 1
    operand_col = match.start(3) + 1 if match.group(3) else match.end(2) + 2
    return match.group(2), match.group(3), operand_col, name_col


def parse_directives(lines, target=None, source=None):
    """Parse directive lines [(line_no, text)] into Directives.

    `target` (a processor like 'gfx1100' or a Target) is the one being assembled for; a
    `.amdgcn_target` line must agree with it. Without either, gfx1100 is assumed.
    """
    lines = list(lines)
    tgt, target_line = _resolve_target(lines, target, source)
    result = Directives(target=tgt, kernels=[], target_line=target_line)
    i = 0
    names = set()
    while i < len(lines):
        line_no, text = lines[i]
        name, operand, col, name_col = _split(text)
        if not name or name == ".amdgcn_target":
            i += 1
        elif name == ".amdhsa_code_object_version":
            value = _value(name, operand, line_no, col, source)
            if value != SUPPORTED_CODE_OBJECT_VERSION:
                raise AssemblerError(f"{name} {value}: only code object version 5 is supported",
                                     line_no, col, source)
            result.code_object_version = value
            i += 1
        elif name == ".amdhsa_kernel":
            kname = operand.split()[0] if operand else ""
            if not kname:
                raise AssemblerError(".amdhsa_kernel: expected a kernel symbol name", line_no, col, source)
            if kname in names:
                raise AssemblerError(f".amdhsa_kernel {kname}: kernel already defined", line_no, col, source)
            end = _find_end(lines, i, ".end_amdhsa_kernel", f".amdhsa_kernel {kname}", source)
            result.kernels.append(_kernel_block(kname, line_no, lines[i + 1:end], tgt, source))
            names.add(kname)
            i = end + 1
        elif name == ".amdgpu_metadata":
            if result.metadata is not None:
                raise AssemblerError(".amdgpu_metadata: only one metadata block is allowed",
                                     line_no, name_col, source)
            end = _find_end(lines, i, ".end_amdgpu_metadata", ".amdgpu_metadata", source)
            result.metadata = _metadata_block(lines[i + 1:end], line_no, source)
            result.metadata_line = line_no
            i = end + 1
        elif name in (".end_amdhsa_kernel", ".end_amdgpu_metadata"):
            raise AssemblerError(f"{name} without a matching {name.replace('.end_', '.')}",
                                 line_no, name_col, source)
        elif name in KERNEL_DIRECTIVES:
            raise AssemblerError(f"{name} is only allowed inside .amdhsa_kernel ... .end_amdhsa_kernel",
                                 line_no, name_col, source)
        else:
            raise AssemblerError(f"unknown directive {name}", line_no, name_col, source)
    return result


def _resolve_target(lines, target, source):
    wanted = None
    if target is not None:
        wanted = parse_target(target) if isinstance(target, str) else target
    found = None
    for line_no, text in lines:
        name, operand, col, _ = _split(text)
        if name != ".amdgcn_target":
            continue
        if len(operand) < 2 or operand[0] != '"' or operand[-1] != '"':
            raise AssemblerError('.amdgcn_target: expected a quoted target id like '
                                 '"amdgcn-amd-amdhsa--gfx1100"', line_no, col, source)
        try:
            declared = parse_target(operand[1:-1])
        except ValueError as err:
            raise AssemblerError(f".amdgcn_target: {err}", line_no, col, source) from None
        if not operand[1:-1].startswith("amdgcn-amd-amdhsa--"):
            raise AssemblerError(f".amdgcn_target: target id {operand} must start with "
                                 f"amdgcn-amd-amdhsa--", line_no, col, source)
        if wanted is not None and declared != wanted:
            raise AssemblerError(f".amdgcn_target: target id {declared.target_id} does not match the "
                                 f"specified target {wanted.target_id}", line_no, col, source)
        if found is not None and declared != found[0]:
            raise AssemblerError(f".amdgcn_target: target id {declared.target_id} differs from "
                                 f"{found[0].target_id} on line {found[1]}", line_no, col, source)
        found = found or (declared, line_no)
    return found or (wanted or parse_target(DEFAULT_TARGET), None)


def _find_end(lines, start, end_name, what, source):
    for j in range(start + 1, len(lines)):
        name = _split(lines[j][1])[0]
        if name == end_name:
            return j
        if name in (".amdhsa_kernel", ".amdgpu_metadata") and end_name == ".end_amdhsa_kernel":
            break
    line_no, text = lines[start]
    raise AssemblerError(f"{what}: missing {end_name}", line_no, _split(text)[3], source)


def _value(name, operand, line_no, col, source):
    try:
        return evaluate(operand)
    except ExprError as err:
        raise AssemblerError(f"{name}: bad value: {err.reason}", line_no, col + err.offset, source) from None


def _kernel_block(kname, kline, body, tgt, source):
    kd = KernelDescriptor()
    kd.set("FLOAT_DENORM_MODE_16_64", 3)
    if tgt.major < 12:
        kd.set("ENABLE_DX10_CLAMP", 1)
        kd.set("ENABLE_IEEE_MODE", 1)
    if tgt.major >= 10:
        kd.set("WGP_MODE", 1)
        kd.set("MEM_ORDERED", 1)
        kd.set("ENABLE_WAVEFRONT_SIZE32", 1 if tgt.default_wave32 else 0)
    kd.set("ENABLE_SGPR_WORKGROUP_ID_X", 1)
    values, where = {}, {}
    for line_no, text in body:
        name, operand, col, name_col = _split(text)
        if not name:
            continue
        if not name.startswith(".amdhsa_"):
            raise AssemblerError(f"{name}: expected .amdhsa_ directive or .end_amdhsa_kernel",
                                 line_no, name_col, source)
        if name not in KERNEL_DIRECTIVES:
            raise AssemblerError(f"unknown .amdhsa_kernel directive {name}", line_no, name_col, source)
        requirement = _BITS[name][2] if name in _BITS else _SPECIAL[name][1] if name in _SPECIAL else _any
        problem = requirement(tgt)
        if problem:
            raise AssemblerError(f"{name}: {problem} (target {tgt.processor})", line_no, name_col, source)
        if name in values:
            raise AssemblerError(f"{name}: .amdhsa_ directives cannot be repeated", line_no, name_col, source)
        value = _value(name, operand, line_no, col, source)
        values[name], where[name] = value, (line_no, col)

        def out_of_range(limit):
            return AssemblerError(f"{name}: value {value} out of range ({limit})", line_no, col, source)

        if name in _BITS:
            register, fname, _ = _BITS[name]
            f = _field(register, fname, tgt)
            if not 0 <= value < (1 << f.width):
                raise out_of_range(f"0..{(1 << f.width) - 1}")
            setattr(kd, register, set_bits(getattr(kd, register), f, value))
        elif name in _WORDS:
            if not 0 <= value <= 0xFFFFFFFF:
                raise out_of_range("0..0xffffffff")
            setattr(kd, _WORDS[name], value)
        else:
            problem = _special_value_problem(name, value, tgt)
            if problem:
                raise AssemblerError(f"{name}: {problem}", line_no, col, source)
    end_line = body[-1][0] + 1 if body else kline + 1
    for required in (".amdhsa_next_free_vgpr", ".amdhsa_next_free_sgpr") + \
            ((".amdhsa_accum_offset",) if tgt.gfx90a_class else ()):
        if required not in values:
            raise AssemblerError(f".amdhsa_kernel {kname}: {required} directive is required",
                                 end_line, 1, source)
    return _finish_block(kname, kline, kd, values, where, tgt, source)


def _special_value_problem(name, value, tgt):
    """Why llvm-mc-19 would refuse `value` for one of the _SPECIAL directives, or None."""
    width = _SPECIAL[name][0]
    if width is not None and not 0 <= value < (1 << width):
        return f"value {value} out of range (0..{(1 << width) - 1})"
    if value < 0:
        return f"value {value} out of range (must be >= 0)"
    if name == ".amdhsa_user_sgpr_kernarg_preload_length" and value > MAX_KERNARG_PRELOAD_SGPRS:
        return f"value {value} out of range (0..{MAX_KERNARG_PRELOAD_SGPRS})"
    if name == ".amdhsa_accum_offset" and not (4 <= value <= 256 and value % 4 == 0):
        return f"{value} not in 4..256 in steps of 4"
    if name == ".amdhsa_reserve_xnack_mask" and value != (tgt.xnack in ("any", "on")):
        return f"{value} does not match target id {tgt.target_id}"
    return None


def _finish_block(kname, kline, kd, values, where, tgt, source):
    vgprs, sgprs = values[".amdhsa_next_free_vgpr"], values[".amdhsa_next_free_sgpr"]
    granulated = granulated_workitem_vgpr_count(vgprs, kd.wave32, tgt.gfx90a_class)
    if granulated >= 64:
        line_no, col = where[".amdhsa_next_free_vgpr"]
        raise AssemblerError(f".amdhsa_next_free_vgpr: value {vgprs} out of range (needs "
                             f"{granulated + 1} VGPR granules, the field holds 64)", line_no, col, source)
    kd.set("GRANULATED_WORKITEM_VGPR_COUNT", granulated)
    shared = values.get(".amdhsa_shared_vgpr_count", 0)
    if shared:
        line_no, col = where[".amdhsa_shared_vgpr_count"]
        # llvm-mc-19 checks wave32 only when .amdhsa_wavefront_size32 is written out
        if values.get(".amdhsa_wavefront_size32") == 1:
            raise AssemblerError(".amdhsa_shared_vgpr_count: shared VGPRs are not valid with "
                                 ".amdhsa_wavefront_size32 1", line_no, col, source)
        if 2 * shared + granulated > 63:
            raise AssemblerError(f".amdhsa_shared_vgpr_count: {shared} shared VGPR granules (x2) plus "
                                 f"{granulated} granulated VGPRs exceed 63", line_no, col, source)
    addressable = None if tgt.major >= 10 else 102 if tgt.major >= 8 else 104
    if addressable is not None and sgprs > addressable:
        line_no, col = where[".amdhsa_next_free_sgpr"]
        raise AssemblerError(f".amdhsa_next_free_sgpr: value {sgprs} out of range ({tgt.processor} "
                             f"addresses {addressable} SGPRs)", line_no, col, source)
    reserve_vcc = bool(values.get(".amdhsa_reserve_vcc", 1))
    extra = _extra_sgprs(tgt, reserve_vcc, bool(values.get(".amdhsa_reserve_flat_scratch", 1)))
    sgpr_granules = granulated_wavefront_sgpr_count(sgprs + extra, tgt.major)
    if sgpr_granules >= 16:
        line_no, col = where[".amdhsa_next_free_sgpr"]
        raise AssemblerError(f".amdhsa_next_free_sgpr: value {sgprs} out of range (with {extra} "
                             f"reserved SGPRs it needs {sgpr_granules + 1} granules, the field holds 16)",
                             line_no, col, source)
    kd.set("GRANULATED_WAVEFRONT_SGPR_COUNT", sgpr_granules)
    if ".amdhsa_accum_offset" in values:
        accum = values[".amdhsa_accum_offset"]
        if accum > (max(1, vgprs) + 3) // 4 * 4:
            line_no, col = where[".amdhsa_accum_offset"]
            raise AssemblerError(f".amdhsa_accum_offset: {accum} exceeds the {vgprs} VGPRs of "
                                 f".amdhsa_next_free_vgpr (rounded up to 4)", line_no, col, source)
        kd.compute_pgm_rsrc3 = set_bits(kd.compute_pgm_rsrc3, COMPUTE_PGM_RSRC3_GFX90A["ACCUM_OFFSET"],
                                        values[".amdhsa_accum_offset"] // 4 - 1)
    preload = values.get(".amdhsa_user_sgpr_kernarg_preload_length", 0)
    kd.set("KERNARG_PRELOAD_SPEC_LENGTH", preload)
    kd.set("KERNARG_PRELOAD_SPEC_OFFSET", values.get(".amdhsa_user_sgpr_kernarg_preload_offset", 0))
    implied = implied_user_sgpr_count(kd.kernel_code_properties) + preload
    count = values.get(".amdhsa_user_sgpr_count", implied)
    if count < implied:
        line_no, col = where[".amdhsa_user_sgpr_count"]
        raise AssemblerError(f".amdhsa_user_sgpr_count {count} is smaller than the {implied} user SGPRs "
                             f"the enabled .amdhsa_user_sgpr_* directives need", line_no, col, source)
    kd.set("USER_SGPR_COUNT", count)
    return KernelBlock(kname, kline, kd, vgprs, sgprs, reserve_vcc,
                       _metadata_extra_sgprs(tgt, reserve_vcc, extra), values)


def _extra_sgprs(tgt, vcc, flat_scratch):
    """SGPRs counted on top of next_free_sgpr for RSRC1's SGPR granules (gfx9 only)."""
    extra = 2 if vcc else 0
    if tgt.major >= 10:
        return extra
    if tgt.xnack in ("any", "on"):
        extra = 4
    if flat_scratch or tgt.architected_flat_scratch:
        extra = 6
    return extra


def _metadata_extra_sgprs(tgt, vcc, extra):
    return extra if tgt.major < 10 else (2 if vcc else 0)


def _metadata_block(body, start_line, source):
    text = "\n".join(t for _, t in body)
    try:
        return parse_yaml(text)
    except YAMLError as err:
        line_no = body[err.line - 1][0] if 0 < err.line <= len(body) else start_line
        raise AssemblerError(f".amdgpu_metadata: {err.reason}", line_no, err.column, source) from None


def descriptor_directives(kd, target):
    """The `.amdhsa_*` directive values a descriptor encodes for `target` (a Target or name),
    as {directive: value}: the inverse of a kernel block, in llvm-objdump-19's vocabulary.

    Register counts come back granulated (.amdhsa_next_free_vgpr is a multiple of the VGPR
    granule); the .amdhsa_reserve_* choices are not recoverable and are left out.
    """
    from .kernel_descriptor import get_bits, vgprs_from_granules
    tgt = parse_target(target) if isinstance(target, str) else target
    out = {name: getattr(kd, word) for name, word in _WORDS.items()}
    for name, (register, fname, requirement) in _BITS.items():
        if requirement(tgt) is None:
            out[name] = get_bits(getattr(kd, register), _field(register, fname, tgt))
    out[".amdhsa_next_free_vgpr"] = vgprs_from_granules(kd.get("GRANULATED_WORKITEM_VGPR_COUNT"),
                                                        kd.wave32, tgt.gfx90a_class)
    out[".amdhsa_user_sgpr_count"] = kd.user_sgpr_count
    if tgt.gfx90a_class:
        out[".amdhsa_user_sgpr_kernarg_preload_length"] = kd.get("KERNARG_PRELOAD_SPEC_LENGTH")
        out[".amdhsa_user_sgpr_kernarg_preload_offset"] = kd.get("KERNARG_PRELOAD_SPEC_OFFSET")
        out[".amdhsa_accum_offset"] = (get_bits(kd.compute_pgm_rsrc3, COMPUTE_PGM_RSRC3_GFX90A["ACCUM_OFFSET"]) + 1) * 4
    return out
