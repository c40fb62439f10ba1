"""Reproducible studies, and the ``koira`` command line that sits on top of everything."""
