"""The prefab's building blocks: each module adds one kind of part to a PrefabBuilder and
returns the fileIDs a layout needs to wire it to others. Layouts (psl.gen.unity.layouts)
compose them; a component never knows which layout uses it."""
