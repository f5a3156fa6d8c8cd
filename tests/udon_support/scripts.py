"""The generated UdonSharp scripts: every `psl-gen udonsharp` output and every UdonSharp
behaviour the Unity package ships (found by parsing, so a script added later is checked
without a test edit)."""

from __future__ import annotations

from functools import lru_cache

from psl.gen import udonsharp
from psl.gen.unity.package import build_package
from tests.udon_support.syntax import class_base, class_nodes, parse, text

BEHAVIOUR_BASES = ("UdonSharpBehaviour", "UdonSharp.UdonSharpBehaviour")


def package_sources() -> dict[str, str]:
    """Every .cs file of the Unity package: package path -> C#."""
    return {path: data.decode("utf-8") for path, data in build_package().files.items()
            if path.endswith(".cs")}


def is_udonsharp(source: str, name: str) -> bool:
    """A file with a class deriving UdonSharpBehaviour (editor scripts are plain C#)."""
    bases = {text(node.child_by_field_name("name") or node): class_base(node)
             for node in class_nodes(parse(source, name))}

    def derives(base: str | None, depth: int = 0) -> bool:
        if base is None or depth > len(bases):
            return False
        return base in BEHAVIOUR_BASES or (base in bases and derives(bases[base], depth + 1))

    return any(derives(base) for base in bases.values())


@lru_cache(maxsize=1)
def _generated() -> tuple[tuple[str, str], ...]:
    scripts = dict(udonsharp.TARGET.render())
    for path, source in sorted(package_sources().items()):
        if not is_udonsharp(source, path):
            continue
        name = path.rsplit("/", 1)[-1]
        if name in scripts and scripts[name] != source:
            raise AssertionError(f"the package's {path} differs from psl-gen udonsharp's {name}")
        scripts[name] = source
    return tuple(scripts.items())


def generated_scripts() -> dict[str, str]:
    """Every generated U# script: file name -> C# (cached: generation is deterministic)."""
    return dict(_generated())


def without_namespace(source: str) -> str:
    """The script with its `namespace X { ... }` wrapper taken off (the package's classes
    live in psl.gen.udonsharp.NAMESPACE), for tools that look classes up at the top level:
    the shared udon_cost tool finds `class Compiler` only there. The code is unchanged."""
    import re

    out, n = re.subn(r"^namespace [\w.]+\s*\n\{\n", "", source, count=1, flags=re.M)
    if not n:
        return source
    end = out.rstrip().rfind("}")
    return out[:end] + out[end + 1:]
