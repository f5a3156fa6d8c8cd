"""Scene parts: mesh renderers, colliders and the screen quad that shows the VM's output."""

from __future__ import annotations

from psl.gen.unity.components.builder import GameObject, PrefabBuilder
from psl.gen.unity.objects import BOX_COLLIDER, MESH_FILTER, MESH_RENDERER, RIGIDBODY
from psl.gen.unity.serialization import NULL, Flow, builtin_ref, vec

#: VRChat's built-in layers used here
LAYER_DEFAULT, LAYER_PLAYER, LAYER_PLAYER_LOCAL, LAYER_PICKUP, LAYER_MIRROR_REFLECTION = (
    0, 9, 10, 13, 18)


def add_mesh_renderer(b: PrefabBuilder, go: GameObject, material: Flow, *, lit: int) -> int:
    """`lit` 1: casts and receives shadows and uses light and reflection probes (a scene
    object); 0: none of these (the screen, which shows the VM's colours as they are)."""
    return b.component(go, "MeshRenderer", MESH_RENDERER, "MeshRenderer", {
        "m_Enabled": 1,
        "m_CastShadows": lit,
        "m_ReceiveShadows": lit,
        "m_DynamicOccludee": 1,
        "m_StaticShadowCaster": 0,
        "m_MotionVectors": 1,
        "m_LightProbeUsage": lit,
        "m_ReflectionProbeUsage": lit,
        "m_RayTracingMode": 2,
        "m_RayTraceProcedural": 0,
        "m_RenderingLayerMask": 1,
        "m_RendererPriority": 0,
        "m_Materials": [material],
        "m_StaticBatchInfo": {"firstSubMesh": 0, "subMeshCount": 0},
        "m_StaticBatchRoot": NULL,
        "m_ProbeAnchor": NULL,
        "m_LightProbeVolumeOverride": NULL,
        "m_ScaleInLightmap": 1,
        "m_ReceiveGI": 1,
        "m_PreserveUVs": 0,
        "m_IgnoreNormalsForChartDetection": 0,
        "m_ImportantGI": 0,
        "m_StitchLightmapSeams": 1,
        "m_SelectedEditorRenderState": 3,
        "m_MinimumChartSize": 4,
        "m_AutoUVMaxDistance": 0.5,
        "m_AutoUVMaxAngle": 89,
        "m_LightmapParameters": NULL,
        "m_SortingLayerID": 0,
        "m_SortingLayer": 0,
        "m_SortingOrder": 0,
        "m_AdditionalVertexStreams": NULL,
    })


def add_box_collider(b: PrefabBuilder, go: GameObject, size: Flow, *, trigger: int) -> int:
    return b.component(go, "BoxCollider", BOX_COLLIDER, "BoxCollider", {
        "m_Material": NULL,
        "m_IncludeLayers": {"serializedVersion": 2, "m_Bits": 0},
        "m_ExcludeLayers": {"serializedVersion": 2, "m_Bits": 0},
        "m_LayerOverridePriority": 0,
        "m_IsTrigger": trigger,
        "m_ProvidesContacts": 0,
        "m_Enabled": 1,
        "serializedVersion": 3,
        "m_Size": size,
        "m_Center": vec(0, 0, 0),
    })




def add_screen(b: PrefabBuilder, parent: GameObject, name: str, material: Flow, *,
               position: Flow, scale: Flow, rotation: Flow | None = None,
               euler: Flow | None = None, layer: int = LAYER_DEFAULT,
               mesh: Flow | None = None) -> tuple[GameObject, int]:
    """A quad (or `mesh`: the relief grid) showing the VM's output through a screen
    material; returns the object and its MeshRenderer's fileID (what quality controls swap
    materials on; its MeshFilter is `object.cid("MeshFilter")`)."""
    transform: dict[str, object] = {"position": position, "scale": scale}
    if rotation is not None:
        transform["rotation"] = rotation
    if euler is not None:
        transform["euler"] = euler
    screen = b.add(name, parent, rect=False, layer=layer, **transform)
    b.component(screen, "MeshFilter", MESH_FILTER, "MeshFilter",
                {"m_Mesh": mesh if mesh is not None else builtin_ref("QuadMesh")})
    return screen, add_mesh_renderer(b, screen, material, lit=0)


def add_pickup_parts(b: PrefabBuilder, body: GameObject, *, use_text: str) -> None:
    """What makes an object a pickup every player sees moved: a kinematic Rigidbody without
    gravity, a VRC Pickup and a VRC Object Sync (the object needs a collider too)."""
    b.component(body, "Rigidbody", RIGIDBODY, "Rigidbody", {
        "serializedVersion": 4,
        "m_Mass": 1,
        "m_Drag": 0,
        "m_AngularDrag": 0.05,
        "m_CenterOfMass": vec(0, 0, 0),
        "m_InertiaTensor": vec(1, 1, 1),
        "m_InertiaRotation": vec(0, 0, 0, 1),
        "m_IncludeLayers": {"serializedVersion": 2, "m_Bits": 0},
        "m_ExcludeLayers": {"serializedVersion": 2, "m_Bits": 0},
        "m_ImplicitCom": 1,
        "m_ImplicitTensor": 1,
        "m_UseGravity": 0,
        "m_IsKinematic": 1,
        "m_Interpolate": 0,
        "m_Constraints": 0,
        "m_CollisionDetection": 0,
    })
    b.mono(body, "VRCPickup", builtin_ref("VRCPickup"), {
        "MomentumTransferMethod": 0,
        "DisallowTheft": 0,
        "ExactGun": NULL,
        "ExactGrip": NULL,
        "allowManipulationWhenEquipped": 0,
        "orientation": 0,
        "AutoHold": 0,
        "InteractionText": "",
        "UseText": use_text,
        "useEventBroadcastType": 0,
        "UseDownEventName": "",
        "UseUpEventName": "",
        "pickupDropEventBroadcastType": 0,
        "PickupEventName": "",
        "DropEventName": "",
        "ThrowVelocityBoostMinSpeed": 1,
        "ThrowVelocityBoostScale": 1,
        "currentlyHeldBy": NULL,
        "pickupable": 1,
        "proximity": 2,
    })
    b.mono(body, "VRCObjectSync", builtin_ref("VRCObjectSync"), {
        "AllowCollisionOwnershipTransfer": 1,
    })


def add_pickup_screen(b: PrefabBuilder, parent: GameObject, name: str, material: Flow, *,
                      size: float, position: Flow,
                      mesh: Flow | None = None) -> tuple[GameObject, int]:
    """A screen players can pick up and carry (the original's small screens): the pickup
    body on the Pickup layer with a thin collider, and the quad as an unscaled-parent child.
    Returns the body and the quad's MeshRenderer fileID."""
    body = b.add(name, parent, rect=False, layer=LAYER_PICKUP, position=position)
    add_box_collider(b, body, vec(size, size, 0.05), trigger=1)
    add_pickup_parts(b, body, use_text=name)
    # uniform scale: a relief grid's height is in screen widths (psl.registry.RELIEF)
    _, renderer = add_screen(b, body, "Quad", material, position=vec(0, 0, 0),
                             scale=vec(size, size, size), layer=LAYER_PICKUP, mesh=mesh)
    return body, renderer
