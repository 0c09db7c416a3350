"""Each bring-up stage as a test (options and fixtures come from the hw_tests.plugin pytest plugin)."""
from hw_tests.plugin import stage_outcome


def test_stage(bringup, stage_name):
    result = stage_outcome(bringup, stage_name)
    print(f"{stage_name}: {result.summary}")
