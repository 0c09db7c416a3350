"""Each bring-up stage as a test (options and fixtures come from hw_tests/conftest.py)."""
from hw_tests.conftest import stage_outcome


def test_stage(bringup, stage_name):
    result = stage_outcome(bringup, stage_name)
    print(f"{stage_name}: {result.summary}")
