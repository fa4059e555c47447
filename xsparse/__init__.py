"""xsparse: a sparse tensor compiler on xDSL."""

__version__ = "0.1.0"
