"""The reference VM: executes compiled PSL programs over a grid of pixels (SPEC §7-9)."""

from psl.vm.inputs import Inputs
from psl.vm.machine import Stats, decode, execute, execute_texture

__all__ = ["Inputs", "Stats", "decode", "execute", "execute_texture"]
