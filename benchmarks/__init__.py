"""Benchmarks of the engine, the replay and the CLI: ``python -m benchmarks [--quick]``.

Scripts that print figures; never timed assertions in the test suite (CONTRIBUTING.md).
"""
