"""benchlens application: the library (store), the analysis, the command line and the Qt UI."""

__version__ = "0.1.0"
