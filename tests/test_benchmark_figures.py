"""The figures the benchmark scripts print: their percentiles, worked by hand."""

from __future__ import annotations

import doctest
import importlib.util

from schachett_rules.paths import home


def _bench_strong():
    spec = importlib.util.spec_from_file_location("bench_strong", home() / "benchmarks" / "bench_strong.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_90th_percentile_lies_between_the_two_nearest_times_and_never_below_the_median():
    bench = _bench_strong()
    # 1..10: 0.9 × 9 = 8.1 places up from the lowest, a tenth of the way from 9 to 10
    assert abs(bench.percentile([float(x) for x in range(10, 0, -1)], 0.9) - 9.1) < 1e-12
    # two times: nine tenths of the way from 2 to 4 is 3.8; the median is 3 (the old rule gave the lower, 2)
    assert abs(bench.percentile([4.0, 2.0], 0.9) - 3.8) < 1e-12
    assert bench.percentile([7.5], 0.9) == 7.5
    assert bench.quantiles([4.0, 2.0]) == "median   3000.0 ms, p90   3800.0 ms"


def test_the_benchmarks_examples_run():
    failed, tried = doctest.testmod(_bench_strong())
    assert tried >= 1 and failed == 0
