"""memsim: a Bayesian-network-grounded simulator of what users tell their assistants."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("memsim")
except PackageNotFoundError:  # running from a source tree that is not installed
    __version__ = "0.0.0+source"
