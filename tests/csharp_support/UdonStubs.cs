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

    // UnityEngine.Mesh / MeshFilter (exposed: MeshFilter.sharedMesh get and set).
    public class Mesh : Object { }

    public class MeshFilter : Component
    {
        public Mesh sharedMesh { get; set; }
    }

    // UnityEngine.Material (exposed: SetVectorArray(string, Vector4[]), SetVector(string, Vector4)).
    // The stub records what was uploaded so the host can dump it: the last array per name
    // (Arrays), the number of SetVectorArray calls (ArrayUploads) and every call in order with
    // the event it happened in (Uploads). Event is test-only: the host calls BeginEvent before
    // each Udon event it delivers (Compile, CompileReceived, one Update frame, ...), so a test
    // can tell whether the arrays of one program were all set within a single event.
    public class Material : Object
    {
        public readonly Dictionary<string, Vector4[]> Arrays = new Dictionary<string, Vector4[]>();
        public readonly Dictionary<string, Vector4> Vectors = new Dictionary<string, Vector4>();
        public readonly List<ArrayUpload> Uploads = new List<ArrayUpload>();
        public int ArrayUploads;
        public int Event;

        public void BeginEvent()
        {
            Event++;
        }

        // The SetVectorArray calls made during event `e`, in order.
        public List<ArrayUpload> UploadsIn(int e)
        {
            List<ArrayUpload> found = new List<ArrayUpload>();
            foreach (ArrayUpload u in Uploads)
            {
                if (u.Event == e)
                {
                    found.Add(u);
                }
            }
            return found;
        }

        // How many distinct events made at least one SetVectorArray call.
        public int UploadEvents()
        {
            int n = 0;
            int last = int.MinValue;
            foreach (ArrayUpload u in Uploads)
            {
                if (u.Event != last)
                {
                    n++;
                    last = u.Event;
                }
            }
            return n;
        }

        public void SetVectorArray(string name, Vector4[] values)
        {
            ArrayUploads++;
            Vector4[] copy = (Vector4[])values.Clone();
            Arrays[name] = copy;
            Uploads.Add(new ArrayUpload(name, copy, Event));
        }

        public void SetVector(string name, Vector4 value)
        {
            Vectors[name] = value;
        }

        // A copy of the array last set under `name`, or null (Unity returns null too when the
        // material has no such array).
        public Vector4[] GetVectorArray(string name)
        {
            Vector4[] values;
            return Arrays.TryGetValue(name, out values) ? (Vector4[])values.Clone() : null;
        }
    }

    // One recorded SetVectorArray call (test-only; not an Udon type).
    public sealed class ArrayUpload
    {
        public readonly string Name;
        public readonly Vector4[] Values;  // a copy taken at the call
        public readonly int Event;

        public ArrayUpload(string name, Vector4[] values, int e)
        {
            Name = name;
            Values = values;
            Event = e;
        }
    }

    // UnityEngine.Renderer / MeshRenderer (exposed: sharedMaterial get/set).
    public class Renderer : Component
    {
        public Material sharedMaterial;
    }

    public class MeshRenderer : Renderer { }

    // UnityEngine.CustomRenderTexture (exposed: updateMode get/set).
    public enum CustomRenderTextureUpdateMode { OnLoad, Realtime, OnDemand }

    public class CustomRenderTexture : Object
    {
        public CustomRenderTextureUpdateMode updateMode = CustomRenderTextureUpdateMode.Realtime;
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
    // UnityEngine.UI.InputField (exposed: text get/set, isFocused get). Tests set isFocused
    // as the player clicking into the box or leaving it would.
    public class InputField : MonoBehaviour
    {
        public string text = "";
        public bool isFocused;
    }

    // UnityEngine.UI.Toggle (exposed: isOn get/set, SetIsOnWithoutNotify). Setting isOn in
    // Unity fires onValueChanged; tests deliver that event themselves.
    public class Toggle : MonoBehaviour
    {
        public bool isOn;

        public void SetIsOnWithoutNotify(bool value)
        {
            isOn = value;
        }
    }

    // UnityEngine.UI.Text (exposed: text get/set).
    public class Text : MonoBehaviour
    {
        public string text = "";
    }
}

namespace VRC.SDKBase
{
    // VRC.SDKBase.VRCPlayerApi (exposed: displayName, Immobilize). The stub records the
    // immobilized state and how often Immobilize was called.
    public class VRCPlayerApi
    {
        public string displayName = "";
        public bool Immobilized;
        public int ImmobilizeCalls;

        public void Immobilize(bool immobile)
        {
            Immobilized = immobile;
            ImmobilizeCalls++;
        }
    }

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
