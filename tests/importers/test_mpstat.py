"""mpstat details not covered by the goldens alone."""

from __future__ import annotations

from benchlens import importers
from tests.conftest import FIXTURES, parse_series

MP = FIXTURES / "mpstat"


def test_json_cpu_minus_1_is_all() -> None:
    """sysstat 12.0's `mpstat -o JSON` labels the all-CPU row `"cpu": "-1"` (issue 13: it became a
    CPU named -1, so nothing found the `all` row). It is `all`, with the same values."""
    mpstat = importers.by_name("mpstat")
    old = parse_series(mpstat, (MP / "mpstat_12.0_C_JSON-P-ALL_cpu-minus-1_handwritten.txt").read_bytes())[0]
    new = parse_series(mpstat, (MP / "mpstat_12.6.1_C_JSON-P-ALL.txt").read_bytes())[0]
    assert not any(entity == "-1" for _, entity in old)
    assert old.keys() == new.keys()
    for key, (t, v) in new.items():
        assert old[key][0].tolist() == t.tolist() and old[key][1].tolist() == v.tolist(), key
    assert old[("%usr", "all")][1].tolist() == [20.10, 22.45]  # the printed values
