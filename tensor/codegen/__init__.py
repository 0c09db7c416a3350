"""Code generators: loop-level IR (:mod:`tensor.loopir`) -> machine code for one GPU ISA each.

``rdna3``: AMD gfx1100, through the project's own assembler into a code object v5.  A code
generator reads the loop-level IR and the element types only; it knows nothing of tensors.
"""
