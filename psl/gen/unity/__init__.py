"""The Unity package: its assets (`assets`), Unity's YAML/.meta/GUID serialization
(`serialization`), the VPM zip and .unitypackage archives (`archives`) and the assembly
of the whole package from the other generators' outputs (`package`)."""
