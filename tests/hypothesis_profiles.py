"""Hypothesis profiles of the test suite, chosen by the ``HYPOTHESIS_PROFILE`` environment
variable: ``dev`` (the default, a fifth of the examples, for a quick run while working) or
``ci`` (every example; ``.ci/run`` sets it).

A test that needs more examples than the default states its count for ``ci`` through
:func:`examples`, which the ``dev`` profile scales down in proportion::

    @settings(max_examples=examples(2000))

Neither profile has a deadline: how long a call takes is measured by the scripts in ``bench/``,
not asserted by tests (a loaded machine would fail them at random).
"""

from __future__ import annotations

import os

from hypothesis import settings

#: Examples per test under ``ci`` when a test states no count (Hypothesis's own default).
CI_EXAMPLES = 100
PROFILES = {
    "ci": settings(max_examples=CI_EXAMPLES, deadline=None, print_blob=True),
    "dev": settings(max_examples=CI_EXAMPLES // 5, deadline=None),
}
DEFAULT = "dev"


def load() -> str:
    """Register the profiles and load the one ``HYPOTHESIS_PROFILE`` names; returns its name."""
    for name, values in PROFILES.items():
        settings.register_profile(name, values)
    name = os.environ.get("HYPOTHESIS_PROFILE") or DEFAULT
    if name not in PROFILES:
        raise ValueError(
            f"HYPOTHESIS_PROFILE={name!r}: the profiles are {', '.join(sorted(PROFILES))}"
        )
    settings.load_profile(name)
    return name


def examples(ci: int) -> int:
    """``ci`` examples under the ``ci`` profile, as many in proportion under the loaded one."""
    return max(1, ci * settings().max_examples // CI_EXAMPLES)


def every_case() -> bool:
    """Whether the loaded profile runs every case (``ci``); tests that are not Hypothesis's but
    share a long list of cases out (tests/unit/engine/test_engine_hostile.py) follow it too."""
    return settings().max_examples >= CI_EXAMPLES
