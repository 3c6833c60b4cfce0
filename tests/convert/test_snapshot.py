"""The converted sample file, snapshot-tested (tests/convert/data/upgrade-sample.yaml)."""

from pathlib import Path

from quotactl.convert.files import convert_text

SAMPLE = Path(__file__).parent / "data" / "upgrade-sample.yaml"


def test_converted_sample(snapshot):
    result = convert_text(SAMPLE.read_text(encoding="utf-8"), "upgrade-sample.yaml")
    assert result.losses == [] and result.objects == 7
    assert result.text == snapshot


def test_converted_sample_diff(snapshot):
    from quotactl.convert.files import unified_diff

    assert unified_diff(convert_text(SAMPLE.read_text(encoding="utf-8"), "upgrade-sample.yaml")) == snapshot
