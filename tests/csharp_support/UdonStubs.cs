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

    // UnityEngine.Mathf (exposed: FloorToInt, Unity's (int)Math.Floor of the value).
    public static class Mathf
    {
        public static int FloorToInt(float f) { return (int)System.Math.Floor(f); }
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
    // SetPixels(Color[]), Apply(bool), GetPixel(int, int)). Test-only members record the constructor's arguments,
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

        // GetPixel reads the CPU copy (what SetPixels wrote), as Unity's does.
        public Color GetPixel(int x, int y)
        {
            return Pixels[y * Width + x];
        }
    }

    // UnityEngine.Object / GameObject / Component (exposed: Component.gameObject).
    public class Object { }

    // UnityEngine.GameObject (exposed: SetActive, activeSelf).
    public class GameObject : Object
    {
        private bool active = true;
        public bool activeSelf { get { return active; } }
        public void SetActive(bool value) { active = value; }
    }

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

    // UnityEngine.Material (exposed: SetVectorArray(string, Vector4[]), SetVector(string, Vector4),
    // SetTexture(string, Texture), GetTexture(string)).
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

        public Texture GetTexture(string name)
        {
            Texture value;
            return Textures.TryGetValue(name, out value) ? value : null;
        }

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

        // Material.SetFloatArray: a copy of the array last set under each name.
        public readonly Dictionary<string, float[]> FloatArrays = new Dictionary<string, float[]>();
        public int FloatArrayUploads;

        public void SetFloatArray(string name, float[] values)
        {
            FloatArrayUploads++;
            FloatArrays[name] = (float[])values.Clone();
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

    // UnityEngine.Time (exposed: time, deltaTime, smoothDeltaTime). The host advances time
    // frame by frame; the players' host scripts each player's frame time (FrameGuard).
    public static class Time
    {
        public static float time;
        public static float deltaTime = 1f / 60f;
        public static float smoothDeltaTime = 1f / 60f;
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
    // UnityEngine.UI.InputField (exposed: text get/set, isFocused get, DeactivateInputField).
    // Tests set isFocused as the player clicking into the box or leaving it would;
    // KeepsFocus (test-only) makes DeactivateInputField leave the focus where it is, as a
    // legacy InputField after VRChat's VR keyboard closed may.
    public class InputField : MonoBehaviour
    {
        public string text = "";
        public bool isFocused;
        public bool KeepsFocus;
        public int Deactivations;

        public void DeactivateInputField()
        {
            Deactivations++;
            if (!KeepsFocus)
            {
                isFocused = false;
            }
        }
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

    // UnityEngine.UI.Slider (exposed: value, minValue, maxValue get/set,
    // SetValueWithoutNotify). As in Unity, the value is clamped into [minValue, maxValue]
    // and a setter that changes it fires onValueChanged: the stub counts those (Notified);
    // tests deliver the event (ProgramSliders.Moved) themselves.
    public class Slider : MonoBehaviour
    {
        private float min;
        private float max = 1f;
        private float current;
        public int Notified;

        public float minValue { get { return min; } set { min = value; Set(current, true); } }
        public float maxValue { get { return max; } set { max = value; Set(current, true); } }
        public float value { get { return current; } set { Set(value, true); } }

        public void SetValueWithoutNotify(float input)
        {
            Set(input, false);
        }

        private void Set(float input, bool notify)
        {
            float v = input < min ? min : (input > max ? max : input);
            if (v == current)
            {
                return;
            }
            current = v;
            if (notify)
            {
                Notified++;
            }
        }
    }
}

namespace VRC.SDKBase
{
    // VRC.SDKBase.VRCPlayerApi (exposed: isLocal, displayName, Immobilize, GetJumpImpulse,
    // SetJumpImpulse, IsUserInVR). The stub records the immobilized state, how often
    // Immobilize was called, the jump impulse (VRChat's default, 3) and whether the player is
    // in VR (InVR, set by tests).
    public class VRCPlayerApi
    {
        public bool isLocal;
        public bool Valid = true; // IsValid: false once the player has left
        public bool IsValid() { return Valid; }
        public string displayName = "";
        public bool Immobilized;
        public int ImmobilizeCalls;
        public float JumpImpulse = 3f;
        public bool InVR;

        public float GetJumpImpulse() { return JumpImpulse; }
        public void SetJumpImpulse(float impulse) { JumpImpulse = impulse; }
        public bool IsUserInVR() { return InVR; }

        public void Immobilize(bool immobile)
        {
            Immobilized = immobile;
            ImmobilizeCalls++;
        }

        public bool isInstanceOwner { get { return Networking.TestInstanceOwner == this; } }

        // The players in the instance (the test host adds each one that joins).
        public static readonly System.Collections.Generic.List<VRCPlayerApi> Present =
            new System.Collections.Generic.List<VRCPlayerApi>();

        public static int GetPlayerCount() { return Present.Count; }

        public static VRCPlayerApi[] GetPlayers(VRCPlayerApi[] players)
        {
            for (int i = 0; i < players.Length && i < Present.Count; i++)
            {
                players[i] = Present[i];
            }
            return players;
        }
    }

    // VRC.SDKBase.VRCUrl (exposed: Get, ToString; the constructor is editor-only in VRChat,
    // used here by the test host and the setup-code test only).
    public class VRCUrl
    {
        private readonly string url;

        public VRCUrl(string url)
        {
            this.url = url == null ? "" : url;
        }

        public string Get() { return url; }

        public override string ToString() { return url; }

        public static VRCUrl Empty { get { return new VRCUrl(""); } }
    }

    // VRC.SDKBase.Networking (exposed: LocalPlayer, IsOwner, SetOwner, IsMaster,
    // IsInstanceOwner). Tests set Master and TestInstanceOwner (null: none here).
    public static class Networking
    {
        public static VRCPlayerApi LocalPlayer = new VRCPlayerApi { isLocal = true };
        public static VRCPlayerApi Owner = null;
        public static VRCPlayerApi Master = null;
        public static VRCPlayerApi TestInstanceOwner = null;

        public static bool IsMaster { get { return Master != null && Master == LocalPlayer; } }

        public static bool IsInstanceOwner
        {
            get { return TestInstanceOwner != null && TestInstanceOwner == LocalPlayer; }
        }

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

namespace VRC.SDK3.Components
{
    // VRC.SDK3.Components.VRCUrlInputField (exposed: GetUrl, SetUrl). The player types a URL
    // into it; the test host sets it with SetUrl.
    public class VRCUrlInputField : UnityEngine.MonoBehaviour
    {
        private VRC.SDKBase.VRCUrl url = VRC.SDKBase.VRCUrl.Empty;

        public VRC.SDKBase.VRCUrl GetUrl() { return url; }

        public void SetUrl(VRC.SDKBase.VRCUrl value) { url = value; }
    }
}

namespace VRC.SDK3.Components.Video
{
    // VRC.SDK3.Components.Video.VideoError (the OnVideoError event's argument; exposed:
    // ToString and the members' getters).
    public enum VideoError { Unknown, InvalidURL, AccessDenied, PlayerError, RateLimited }
}

namespace VRC.SDK3.Video.Components.Base
{
    // VRC.SDK3.Video.Components.Base.BaseVRCVideoPlayer (exposed: PlayURL, Stop, ...): the
    // base of VRChat's Unity and AVPro video players. The stub remembers the last request.
    public class BaseVRCVideoPlayer : UnityEngine.MonoBehaviour
    {
        public VRC.SDKBase.VRCUrl LastUrl;
        public bool IsPlaying;

        public void PlayURL(VRC.SDKBase.VRCUrl url) { LastUrl = url; IsPlaying = true; }

        public void Stop() { IsPlaying = false; }
    }
}

namespace VRC.Udon.Common.Interfaces
{
    // VRC.Udon.Common.Interfaces.IUdonEventReceiver (what LoadUrl sends its result to).
    public interface IUdonEventReceiver { }
}

namespace VRC.SDK3.StringLoading
{
    using VRC.SDKBase;
    using VRC.Udon.Common.Interfaces;

    // VRC.SDK3.StringLoading.IVRCStringDownload (exposed: Result, ResultBytes, Error,
    // ErrorCode, Url, UdonBehaviour).
    public interface IVRCStringDownload
    {
        string Result { get; }
        byte[] ResultBytes { get; }
        string Error { get; }
        int ErrorCode { get; }
        VRCUrl Url { get; }
        IUdonEventReceiver UdonBehaviour { get; }
    }

    // VRC.SDK3.StringLoading.VRCStringDownloader (exposed: LoadUrl). A stand-in that behaves
    // as VRChat documents: the request is queued and answered later by the host's
    // StringLoadingService (one download every 5 s, queued requests in random order).
    public static class VRCStringDownloader
    {
        public static readonly System.Collections.Generic.List<PendingDownload> Queue =
            new System.Collections.Generic.List<PendingDownload>();

        public static void LoadUrl(VRCUrl url, IUdonEventReceiver receiver)
        {
            Queue.Add(new PendingDownload(url, receiver));
        }
    }

    // One queued request (test-only).
    public sealed class PendingDownload
    {
        public readonly VRCUrl Url;
        public readonly IUdonEventReceiver Receiver;

        public PendingDownload(VRCUrl url, IUdonEventReceiver receiver)
        {
            Url = url;
            Receiver = receiver;
        }
    }
}

namespace VRC.SDK3.Persistence
{
    using System.Collections.Generic;
    using VRC.SDKBase;

    // VRC.SDK3.Persistence.PlayerData (exposed: HasKey, GetString, TryGetString, SetString;
    // Reads counts TryGetString calls). A stand-in that
    // behaves as VRChat documents: a player's data can be used only after OnPlayerRestored
    // for them (Restore, by the host); SetString writes the local player's data; over the
    // budget (UTF-8 bytes of every key and value, uncompressed here) nothing is saved and
    // StorageExceeded is raised for the host to deliver. Misuse throws, as a test failure.
    public static class PlayerData
    {
        public static readonly Dictionary<VRCPlayerApi, Dictionary<string, string>> Data =
            new Dictionary<VRCPlayerApi, Dictionary<string, string>>();
        public static int Budget = 100 * 1024;
        public static bool StorageExceeded;
        public static int Writes;

        public static void Restore(VRCPlayerApi player, Dictionary<string, string> saved)
        {
            Data[player] = saved;
        }

        private static Dictionary<string, string> Of(VRCPlayerApi player)
        {
            Dictionary<string, string> d;
            if (player == null || !Data.TryGetValue(player, out d))
            {
                throw new System.InvalidOperationException("PlayerData used before OnPlayerRestored");
            }
            return d;
        }

        public static bool HasKey(VRCPlayerApi player, string key)
        {
            return Of(player).ContainsKey(key);
        }

        public static string GetString(VRCPlayerApi player, string key)
        {
            string v;
            return Of(player).TryGetValue(key, out v) ? v : null;
        }

        public static int Reads;

        // False (value null) when the key is missing; every value here is a string.
        public static bool TryGetString(VRCPlayerApi player, string key, out string value)
        {
            Reads++;
            return Of(player).TryGetValue(key, out value);
        }

        public static void SetString(string key, string value)
        {
            Dictionary<string, string> d = Of(Networking.LocalPlayer);
            int size = System.Text.Encoding.UTF8.GetByteCount(key) + System.Text.Encoding.UTF8.GetByteCount(value);
            foreach (KeyValuePair<string, string> kv in d)
            {
                if (kv.Key != key)
                {
                    size += System.Text.Encoding.UTF8.GetByteCount(kv.Key) + System.Text.Encoding.UTF8.GetByteCount(kv.Value);
                }
            }
            if (size > Budget)
            {
                StorageExceeded = true;
                return;
            }
            d[key] = value;
            Writes++;
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
    public class UdonSharpBehaviour : UnityEngine.MonoBehaviour, VRC.Udon.Common.Interfaces.IUdonEventReceiver
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
        public virtual void OnStringLoadSuccess(VRC.SDK3.StringLoading.IVRCStringDownload result) { }
        public virtual void OnStringLoadError(VRC.SDK3.StringLoading.IVRCStringDownload result) { }
        public virtual void OnPlayerRestored(VRC.SDKBase.VRCPlayerApi player) { }
        public virtual void OnPlayerDataStorageExceeded(VRC.SDKBase.VRCPlayerApi player) { }
        public virtual void OnPlayerDataStorageWarning(VRC.SDKBase.VRCPlayerApi player) { }
        public virtual void OnVideoStart() { }
        public virtual void OnVideoError(VRC.SDK3.Components.Video.VideoError videoError) { }
    }
}
