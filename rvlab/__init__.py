"""rvlab: a workbench for cryptography on small RISC-V cores."""
__version__ = "0.1.0"
