"""ISA assemblers and disassemblers, one subpackage per target (rdna3 first), and code objects."""
