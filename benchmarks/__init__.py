"""Benchmarks: ``python -m benchmarks [engine|bots|replay|widget ...]`` prints figures.

Each benchmark compares with a baseline measured in the same run, because the machines are shared
and noisy: a figure alone means little, a ratio taken side by side means more.
"""
