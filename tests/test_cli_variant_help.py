"""Every command's --variant help names the registered variants and side-bet options, and a name
with options works where the help says it does."""

from __future__ import annotations

import re

from typer.testing import CliRunner

from baccarat.cli.app import app
from baccarat.cli.params import VARIANT_HELP
from baccarat.paytables import builtin_options
from baccarat.variants import variant_names


def test_the_variant_help_names_every_variant_and_option() -> None:
    base, options = re.match(r"Variant: (.*?); .*\(options: (.*?); ", VARIANT_HELP).groups()  # type: ignore[union-attr]
    assert tuple(base.split(", ")) == variant_names()
    assert sorted(options.split(", ")) == sorted(builtin_options())


def test_a_variant_with_options_is_priced_as_the_help_says() -> None:
    result = CliRunner().invoke(app, ["odds", "--variant", "macau+lucky6+tie9", "--json"])
    assert result.exit_code == 0, result.output
    assert "lucky6" in result.output and '"variant"' in result.output
