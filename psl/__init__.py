"""psl: toolchain for PSL, the shading language of the Shaderception VRChat world."""

__version__ = "0.1.0"
