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

    // UnityEngine.Color (exposed: constructor (r, g, b, a), fields r g b a).
    public struct Color
    {
        public float r, g, b, a;

        public Color(float r, float g, float b, float a)
        {
            this.r = r; this.g = g; this.b = b; this.a = a;
        }
    }

    // The enum values the program texture uses (values as in UnityEngine).
    public enum TextureFormat { RGBA32 = 4, RGBAHalf = 17, RGBAFloat = 20 }
    public enum FilterMode { Point = 0, Bilinear = 1, Trilinear = 2 }
    public enum TextureWrapMode { Repeat = 0, Clamp = 1, Mirror = 2, MirrorOnce = 3 }

    // UnityEngine.Texture (exposed: filterMode and wrapMode setters; Unity's defaults).
    public class Texture : Object
    {
        public FilterMode filterMode { get; set; } = FilterMode.Bilinear;
        public TextureWrapMode wrapMode { get; set; } = TextureWrapMode.Repeat;
    }

    // UnityEngine.Texture2D (exposed: constructor (width, height, format, mipChain, linear),
    // SetPixels(Color[]), Apply(bool)). Test-only members record the constructor's arguments,
    // the CPU copy SetPixels writes (Pixels) and what the GPU holds after the last Apply
    // (Applied, null before the first): a shader sees only Applied.
    public class Texture2D : Texture
    {
        public readonly int Width, Height;
        public readonly TextureFormat Format;
        public readonly bool MipChain, Linear;
        public readonly Color[] Pixels;
        public Color[] Applied;
        public int Applies;

        public Texture2D(int width, int height, TextureFormat textureFormat, bool mipChain, bool linear)
        {
            Width = width; Height = height; Format = textureFormat; MipChain = mipChain; Linear = linear;
            Pixels = new Color[width * height];
        }

        public void SetPixels(Color[] colors)
        {
            if (colors.Length != Pixels.Length)
            {
                throw new ArgumentException("SetPixels: the array must hold width * height colours");
            }
            Array.Copy(colors, Pixels, colors.Length);
        }

        public void Apply(bool updateMipmaps)
        {
            Applied = (Color[])Pixels.Clone();
            Applies++;
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

    // UnityEngine.Material (exposed: SetVectorArray(string, Vector4[]), SetVector(string, Vector4),
    // SetTexture(string, Texture)).
    // The stub records what was uploaded so the host can dump it: the last array per name
    // (Arrays), the texture bound per name (Textures), the number of SetVectorArray and
    // SetTexture calls (ArrayUploads) and every call in order with the event it happened in
    // (Uploads; a SetTexture of a Texture2D records its applied texels as Vector4 (r, g, b, a),
    // none when it was never applied). Event is test-only: the host calls BeginEvent before
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

        public readonly Dictionary<string, Texture> Textures = new Dictionary<string, Texture>();

        public void SetTexture(string name, Texture value)
        {
            ArrayUploads++;
            Textures[name] = value;
            Texture2D t = value as Texture2D;
            Vector4[] texels = null;
            if (t != null && t.Applied != null)
            {
                texels = new Vector4[t.Applied.Length];
                for (int k = 0; k < texels.Length; k++)
                {
                    Color c = t.Applied[k];
                    texels[k] = new Vector4(c.r, c.g, c.b, c.a);
                }
            }
            Uploads.Add(new ArrayUpload(name, texels, Event));
        }

        public void SetVector(string name, Vector4 value)
        {
            Vectors[name] = value;
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
