"""The compiled part of the package: the Varanasi win/loss search (engines/_varanasi_search.c).
Everything else is in pyproject.toml. Without a C compiler the install still succeeds and the
search runs in Python (the same moves, about 20 times slower)."""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension("engines._varanasi_search", ["engines/_varanasi_search.c"], optional=True),
    ],
)
