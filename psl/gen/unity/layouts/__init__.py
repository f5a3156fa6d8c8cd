"""Prefab layouts: one module per prefab, each a function that composes the components of
psl.gen.unity.components into a GameObject tree and returns the prefab's YAML. A new layout
is a new module here plus one line in psl.gen.unity.package."""
