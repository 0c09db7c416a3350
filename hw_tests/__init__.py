"""Bring-up suite for a new card (or the virtual one).

    python -m hw_tests --device amd:0 [--json report.json] [--only STAGE,...] [--list]
    python -m hw_tests --emulate gfx1100          # the virtual RX 7900 XTX, as CI runs it
    pytest hw_tests --device amd:0                # the same stages as pytest tests

Stages run in dependency order (sysfs -> open -> memory -> copies -> signals -> kernels ->
instruction families -> dispatch shapes -> faults -> peaks); a failed stage skips the stages
that need it, naming it. Each stage lives in hw_tests/stages/, registers itself with
``register(registry)`` and is a function ``stage(ctx, result)`` that records numbers with
``result.measure`` and fails by raising (``check`` for measured values, ``Skip`` for a stage that
does not apply, ``LayerMissing`` when a lower layer of this stack cannot do what it needs).
The report's shape is hw_tests/report.schema.json (``python -m hw_tests.schema r.json``).
"""
