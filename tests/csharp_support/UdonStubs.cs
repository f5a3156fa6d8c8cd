// Minimal stand-ins for the Unity, VRChat SDK and UdonSharp types that the generated
// behaviours use, so mono's mcs can compile them outside Unity. Every member here mirrors
// an API that is exposed to Udon in VRChat SDK 3 / UdonSharp 1.x (names and signatures as
// in the SDK); nothing else may be added without checking that it is Udon-exposed.
// Test-only code: generics and collections are fine here (they never reach Udon).

using System;
using System.Collections.Generic;

namespace UnityEngine
{
    // UnityEngine.Vector4 (exposed: constructor, fields x y z w).
    public struct Vector4
    {
        public float x, y, z, w;

        public Vector4(float x, float y, float z, float w)
        {
            this.x = x; this.y = y; this.z = z; this.w = w;
        }
    }

    // UnityEngine.Object / GameObject / Component (exposed: Component.gameObject).
    public class Object { }

    public class GameObject : Object { }

    public class Component : Object
    {
        private readonly GameObject _go = new GameObject();
        public GameObject gameObject { get { return _go; } }
    }

    public class Behaviour : Component { }

    public class MonoBehaviour : Behaviour { }

    // UnityEngine.Material (exposed: SetVectorArray(string, Vector4[]), SetVector(string, Vector4)).
    // The stub records what was uploaded so the host can dump it.
    public class Material : Object
    {
        public readonly Dictionary<string, Vector4[]> Arrays = new Dictionary<string, Vector4[]>();
        public readonly Dictionary<string, Vector4> Vectors = new Dictionary<string, Vector4>();
        public int ArrayUploads;

        public void SetVectorArray(string name, Vector4[] values)
        {
            ArrayUploads++;
            Arrays[name] = (Vector4[])values.Clone();
        }

        public void SetVector(string name, Vector4 value)
        {
            Vectors[name] = value;
        }
    }

    // UnityEngine.TextAreaAttribute (inspector attribute; allowed on U# fields).
    [AttributeUsage(AttributeTargets.Field)]
    public class TextAreaAttribute : Attribute
    {
        public TextAreaAttribute(int minLines, int maxLines) { }
    }
}

namespace UnityEngine.UI
{
    // UnityEngine.UI.InputField (exposed: text get/set).
    public class InputField : MonoBehaviour
    {
        public string text = "";
    }

    // UnityEngine.UI.Text (exposed: text get/set).
    public class Text : MonoBehaviour
    {
        public string text = "";
    }
}

namespace VRC.SDKBase
{
    // VRC.SDKBase.VRCPlayerApi (exposed).
    public class VRCPlayerApi { }

    // VRC.SDKBase.Networking (exposed: LocalPlayer, IsOwner, SetOwner).
    public static class Networking
    {
        public static VRCPlayerApi LocalPlayer = new VRCPlayerApi();
        public static VRCPlayerApi Owner = null;

        public static bool IsOwner(VRCPlayerApi player, UnityEngine.GameObject obj)
        {
            return Owner == player;
        }

        public static void SetOwner(VRCPlayerApi player, UnityEngine.GameObject obj)
        {
            Owner = player;
        }
    }
}

namespace VRC.Udon.Common
{
    // VRC.Udon.Common.UdonInputEventArgs (argument of the Input* events).
    public class UdonInputEventArgs { }
}

namespace UdonSharp
{
    using VRC.Udon.Common;

    public enum BehaviourSyncMode { Any, None, Continuous, Manual, NoVariableSync }

    [AttributeUsage(AttributeTargets.Class)]
    public class UdonBehaviourSyncModeAttribute : Attribute
    {
        public UdonBehaviourSyncModeAttribute(BehaviourSyncMode mode) { }
    }

    [AttributeUsage(AttributeTargets.Field)]
    public class UdonSyncedAttribute : Attribute { }

    [AttributeUsage(AttributeTargets.Method)]
    public class RecursiveMethodAttribute : Attribute { }

    // UdonSharp.UdonSharpBehaviour: the Udon events the behaviours override, and
    // RequestSerialization. The stub counts serialization requests.
    public class UdonSharpBehaviour : UnityEngine.MonoBehaviour
    {
        public int SerializationRequests;

        public void RequestSerialization() { SerializationRequests++; }

        public virtual void Interact() { }
        public virtual void OnDeserialization() { }
        public virtual void InputUse(bool value, UdonInputEventArgs args) { }
        public virtual void InputJump(bool value, UdonInputEventArgs args) { }
        public virtual void InputGrab(bool value, UdonInputEventArgs args) { }
        public virtual void InputDrop(bool value, UdonInputEventArgs args) { }
        public virtual void InputMoveHorizontal(float value, UdonInputEventArgs args) { }
        public virtual void InputMoveVertical(float value, UdonInputEventArgs args) { }
        public virtual void InputLookHorizontal(float value, UdonInputEventArgs args) { }
        public virtual void InputLookVertical(float value, UdonInputEventArgs args) { }
    }
}
