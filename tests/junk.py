"""What the bad-input tests draw: any JSON value, nested, as a corrupt file, a careless caller
or a hostile web request passes it, and the Hypothesis settings they share (derandomized, so
every run draws the same examples)."""

from __future__ import annotations

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

PROFILE = settings(
    max_examples=40,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.filter_too_much,
        HealthCheck.function_scoped_fixture,
    ],
)

SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=6)
)
JUNK = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=8,
)
