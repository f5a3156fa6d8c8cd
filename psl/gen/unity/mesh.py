"""The relief screen's grid meshes as Unity Mesh assets (.asset, text serialisation).

The original world's screen is TheQuad.fbx, a 257 x 257-vertex grid whose vertices
Screen.shader moves by the program's alpha. We write the same kind of grid, and coarser ones
for slower machines (psl.registry.RELIEF.resolutions), as native Mesh assets: one vertex
stream (position, normal, uv0; 32 bytes a vertex), 32-bit indices, one submesh.

Layout (like Unity's built-in Quad, so a screen can swap one for the other): the grid spans
-0.5..0.5 in x and y at z = 0, uv (0, 0) at (-0.5, -0.5), and faces -Z (normal (0, 0, -1);
triangles wind clockwise seen from -Z, Unity's front face).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from psl.gen.unity.serialization import NULL, Raw, UnityObject, dump_objects, vec
from psl.registry import RELIEF

MESH = 43  # Unity class ID
MESH_ID = 4300000  # main object fileID of a Mesh .asset
MESH_VERSION = 11  # Mesh serializedVersion of Unity 2022.3
INDEX_FORMAT_UINT32 = 1
#: VertexAttribute order of m_Channels (Position, Normal, Tangent, Color, TexCoord0..7,
#: BlendWeight, BlendIndices); format 0 is VertexAttributeFormat.Float32
CHANNELS = 14
CHANNEL_POSITION, CHANNEL_NORMAL, CHANNEL_UV0 = 0, 1, 4
STRIDE = 32  # float3 position, float3 normal, float2 uv
NORMAL = (0.0, 0.0, -1.0)
#: Half-depth of the bounds: the vertex shader moves vertices along z by alpha times the
#: height scale, clamped to RELIEF.max_displacement (Screen.shader), and Unity culls a
#: renderer by its mesh bounds: the bounds hold every displaced vertex.
BOUNDS_HALF_DEPTH = RELIEF.max_displacement


@dataclass(frozen=True)
class Grid:
    """A grid's vertex arrays (float32) and triangles (uint32, three per row)."""

    side: int  # vertices per side
    positions: np.ndarray  # (side*side, 3)
    normals: np.ndarray  # (side*side, 3)
    uvs: np.ndarray  # (side*side, 2)
    triangles: np.ndarray  # (2*(side-1)**2, 3)


def grid(side: int) -> Grid:
    """Vertex (i, j) is index j*side + i at uv (i, j) / (side - 1)."""
    if side < 2:
        raise ValueError("a grid needs at least 2 vertices per side")
    t = np.linspace(0.0, 1.0, side, dtype=np.float64)
    u, v = np.meshgrid(t, t)  # [j][i]
    uvs = np.stack([u.ravel(), v.ravel()], axis=1).astype(np.float32)
    positions = np.zeros((side * side, 3), np.float32)
    positions[:, :2] = uvs - np.float32(0.5)
    normals = np.tile(np.asarray(NORMAL, np.float32), (side * side, 1))
    i, j = np.meshgrid(np.arange(side - 1, dtype=np.uint32), np.arange(side - 1, dtype=np.uint32))
    a = (j * side + i).ravel()  # (i, j)
    b, c, d = a + 1, a + side, a + side + 1  # (i+1, j), (i, j+1), (i+1, j+1)
    # As Unity's Quad (0, 3, 1), (3, 0, 2): clockwise seen from -Z.
    triangles = np.stack([np.stack([a, d, b], 1), np.stack([d, a, c], 1)], 1).reshape(-1, 3)
    return Grid(side, positions, normals, uvs, triangles.astype(np.uint32))


def mesh_name(side: int) -> str:
    return f"PSL_Grid_{side}"


def _vertex_bytes(g: Grid) -> bytes:
    data = np.zeros((len(g.positions), STRIDE // 4), "<f4")
    data[:, 0:3] = g.positions
    data[:, 3:6] = g.normals
    data[:, 6:8] = g.uvs
    return data.tobytes()


def _channels() -> list[dict[str, int]]:
    layout = {CHANNEL_POSITION: (0, 3), CHANNEL_NORMAL: (12, 3), CHANNEL_UV0: (24, 2)}
    out = []
    for channel in range(CHANNELS):
        offset, dim = layout.get(channel, (0, 0))
        out.append({"stream": 0, "offset": offset, "format": 0, "dimension": dim})
    return out


def _packed(ranged: bool) -> dict[str, object]:
    if ranged:
        return {"m_NumItems": 0, "m_Range": 0, "m_Start": 0, "m_Data": None, "m_BitSize": 0}
    return {"m_NumItems": 0, "m_Data": None, "m_BitSize": 0}


def grid_mesh_asset(side: int) -> str:
    """The text of a full `PSL_Grid_<side>.asset`, vertices and indices as hex (the form the
    package shipped before its editor script built the grids; tests compare with it)."""
    return dump_objects([UnityObject(MESH, MESH_ID, "Mesh", grid_mesh_asset_fields(side))])


def grid_mesh_asset_fields(side: int) -> dict[str, object]:
    """The Mesh object's fields of grid_mesh_asset (deterministic)."""
    g = grid(side)
    vertices = _vertex_bytes(g)
    indices = g.triangles.astype("<u4").tobytes()
    lo, hi = g.positions.min(axis=0), g.positions.max(axis=0)
    centre = [float(x) for x in (lo + hi) / 2]
    extent = [float(x) for x in (hi - lo) / 2]
    extent[2] = BOUNDS_HALF_DEPTH
    aabb = {"m_Center": vec(*centre), "m_Extent": vec(*extent)}
    body = {
        "m_ObjectHideFlags": 0,
        "m_CorrespondingSourceObject": NULL,
        "m_PrefabInstance": NULL,
        "m_PrefabAsset": NULL,
        "m_Name": mesh_name(side),
        "serializedVersion": MESH_VERSION,
        "m_SubMeshes": [{
            "serializedVersion": 2,
            "firstByte": 0,
            "indexCount": int(g.triangles.size),
            "topology": 0,  # triangles
            "baseVertex": 0,
            "firstVertex": 0,
            "vertexCount": len(g.positions),
            "localAABB": aabb,
        }],
        "m_Shapes": {"vertices": [], "shapes": [], "channels": [], "fullWeights": []},
        "m_BindPose": [],
        "m_BoneNameHashes": None,
        "m_RootBoneNameHash": 0,
        "m_BonesAABB": [],
        "m_VariableBoneCountWeights": {"m_Data": None},
        "m_MeshCompression": 0,
        "m_IsReadable": 0,
        "m_KeepVertices": 0,
        "m_KeepIndices": 0,
        "m_IndexFormat": INDEX_FORMAT_UINT32,
        "m_IndexBuffer": Raw(indices.hex()),
        "m_VertexData": {
            "serializedVersion": 3,
            "m_VertexCount": len(g.positions),
            "m_Channels": _channels(),
            "m_DataSize": len(vertices),
            "_typelessdata": Raw(vertices.hex()),
        },
        "m_CompressedMesh": {
            "m_Vertices": _packed(True), "m_UV": _packed(True), "m_Normals": _packed(True),
            "m_Tangents": _packed(True), "m_Weights": _packed(False),
            "m_NormalSigns": _packed(False), "m_TangentSigns": _packed(False),
            "m_FloatColors": _packed(True), "m_BoneIndices": _packed(False),
            "m_Triangles": _packed(False), "m_UVInfo": 0,
        },
        "m_LocalAABB": aabb,
        "m_MeshUsageFlags": 0,
        "m_CookingOptions": 30,
        "m_BakedConvexCollisionMesh": None,
        "m_BakedTriangleCollisionMesh": None,
        "m_MeshMetrics[0]": 1,
        "m_MeshMetrics[1]": 1,
        "m_MeshOptimizationFlags": 1,
        "m_StreamData": {"serializedVersion": 2, "offset": 0, "size": 0, "path": None},
    }
    return body


def placeholder_mesh_asset(side: int) -> str:
    """The text of the `PSL_Grid_<side>.asset` the package ships: the Mesh object (its GUID
    and fileID MESH_ID are what the prefabs and the relief buttons reference) without its
    vertices, which the package's editor script (ShaderceptionSetup.cs, GridMeshes) fills in
    on import with the same grid as grid(side), and the bounds grid_mesh_asset gives it.
    Megabytes of vertex and index hex never ship (issue 39)."""
    g = grid(side)
    lo, hi = g.positions.min(axis=0), g.positions.max(axis=0)
    centre = [float(x) for x in (lo + hi) / 2]
    extent = [float(x) for x in (hi - lo) / 2]
    extent[2] = BOUNDS_HALF_DEPTH
    aabb = {"m_Center": vec(*centre), "m_Extent": vec(*extent)}
    full = grid_mesh_asset_fields(2)  # the smallest grid's fields, emptied below
    full.update({
        "m_Name": mesh_name(side),
        "m_SubMeshes": [],
        "m_IndexBuffer": Raw(""),
        "m_LocalAABB": aabb,
    })
    full["m_VertexData"] = {**full["m_VertexData"], "m_VertexCount": 0, "m_DataSize": 0,
                            "_typelessdata": Raw("")}
    # readable: the editor script writes the vertices through the Mesh API
    full["m_IsReadable"] = 1
    return dump_objects([UnityObject(MESH, MESH_ID, "Mesh", full)])


def parse_grid_mesh_asset(text: str) -> Grid:
    """Read back a mesh written by grid_mesh_asset (positions, normals, uvs, triangles)."""

    def field(name: str) -> str:
        match = re.search(rf"^\s*{re.escape(name)}: ?(\S*)$", text, re.MULTILINE)
        if match is None:
            raise ValueError(f"mesh asset without {name}")
        return match.group(1)

    count = int(field("m_VertexCount"))
    if int(field("m_IndexFormat")) != INDEX_FORMAT_UINT32:
        raise ValueError("expected 32-bit indices")
    raw = np.frombuffer(bytes.fromhex(field("_typelessdata")), "<f4").reshape(count, -1)
    tris = np.frombuffer(bytes.fromhex(field("m_IndexBuffer")), "<u4").reshape(-1, 3)
    side = int(round(count ** 0.5))
    return Grid(side, raw[:, 0:3], raw[:, 3:6], raw[:, 6:8], tris)
