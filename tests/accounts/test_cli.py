"""`flask tenants set-limits` and `flask support create`."""

from __future__ import annotations


def test_set_limits_and_support(cli):
    cli("tenants", "create", "big", "--plan", "enterprise")
    result = cli("tenants", "set-limits", "big", "--hourly", "50000", "--burst", "2000")
    assert result.output.strip() == "big\t50000/h\tburst 2000"
    result = cli("support", "create", "help@operator.example", "--password", "a-long-password")
    assert result.exit_code == 0 and result.output.startswith("stf_")
    assert cli("support", "create", "help@operator.example", "--password", "x" * 12).exit_code == 1
