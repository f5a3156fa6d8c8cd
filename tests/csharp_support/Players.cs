// Test host part (not Udon code): a session of several simulated players, each with their
// own input field, Compiler, SyncCode, TypingLock, follow and stay-in-place toggles, as every
// client of a VRChat instance has its own copy of the world's behaviours. One network object
// (SyncCode) is shared: when a client requests serialization, the harness copies its
// [UdonSynced] fields to every other client and delivers OnDeserialization there, and keeps
// that state for late joiners (VRChat sends the owner's last state to whoever joins).
// After every command all compiles run to the end (Update frames) and every TypingLock
// sees one frame.
//
// Commands on stdin, one per line, fields separated by a tab; "\n" in text means a newline:
//   join NAME [TEXT]   a player joins with TEXT in the editor (the prefab's default program);
//                      Start runs, then the current shared state arrives, if any
//   joinearly NAME [TEXT]  the same, but the shared state arrives before Start
//   type NAME TEXT     the player's editor now holds TEXT
//   send NAME EVENT    a button: SyncCode's Share, LoadShared, Restore
//   example NAME TEXT  an example button with program TEXT (wired to SyncCode)
//   follow NAME 0|1    the follow toggle changes (then FollowChanged)
//   focus NAME 0|1     the code box gains or loses keyboard focus (then a frame)
//   pin NAME 0|1       the stay-in-place toggle changes (then PinChanged)
//   pad NAME           Interact on the TypingLock (the original's floor pad)
//   vr NAME 0|1        the player is in VR (VRCPlayerApi.IsUserInVR)
//   stick NAME H V     the move stick: InputMoveHorizontal(H), then InputMoveVertical(V),
//                      on the TypingLock (then a frame)
//   keepsfocus NAME 0|1  the code box keeps focus when a script deactivates it (a legacy
//                      InputField after VRChat's VR keyboard closed)
//   listing NAME       the Listing button (ListingView.Show, then frames until it is done);
//                      the output text is the listing
//   texels NAME LANES  NAME's program texture (bound by a compile) now holds LANES (floats
//                      separated by spaces: slot 0's x y z w, slot 1's, ...), zeros after
//   compile NAME       the Compile button: Compiler.Compile, then the guard's and the
//                      sliders' ProgramChanged (the prefab's three calls)
//   slide NAME K V     NAME drags slider K to V (the UI clamps it), then ProgramSliders.Moved
//   sliders NAME       prints one JSON line (see SliderState)
// Each player also has the screen's sliders (ProgramSliders, on SyncCode's `sliders`), over
// the Compiler's VM material; after every command their Update runs until they are idle.
//   clock SECONDS      the world's clock (Time.time) moves on by SECONDS
//   state NAME         prints one JSON line (see State)
//   quality K          three screens, four resolutions: the quality button of resolution K
//                      (0..3) is pressed; prints which material each screen shows and each
//                      render texture's update mode
// Each player also has a frame-rate guard (FrameGuard) over one screen and four resolutions
// (64, 128, 256, 512), told of programs by SyncCode and the examples, with its own quality
// buttons wired to it:
//   frametime NAME S   what Time.smoothDeltaTime (and deltaTime) return on NAME's frames
//   frames N           N frames: every player's guard sees one Update() each (no clock)
//   press NAME K       NAME's quality button of resolution K (0..3): the guard's ceiling
//   anyway NAME        NAME presses "Run anyway" on the paused note
//   guard NAME         prints one JSON line (see GuardState); its trace restarts
// Owner controls: the first player to join is the master;
//   instanceowner NAME the instance owner (NAME, or "-": none present)

using System;
using System.Collections.Generic;
using System.Reflection;
using System.Text;
using UnityEngine;
using UnityEngine.UI;
using PSL.Shaderception;

public static class Players
{
    private sealed class Client
    {
        public string Name;
        public VRC.SDKBase.VRCPlayerApi Player;
        public InputField Field;
        public Compiler Compiler;
        public SyncCode Sync;
        public TypingLock Lock;
        public Toggle Follow;
        public Toggle Pin;
        public Text Info;
        public FrameGuard Guard;
        public MeshRenderer Screen;
        public Material[] Materials;
        public CustomRenderTexture[] Buffers;
        public ScreenQuality[] QualityButtons;
        public UnityEngine.GameObject Note;
        public Text NoteText;
        public float FrameTime = 1f / 60f;
        // the guard's trace since the last `guard` command
        public int Frames;
        public int MaxSize;
        public int MinSize = int.MaxValue;
        public int Changes;
        public int PausedAt = -1;
        public int LastSize;
        public int Serializations;
        public string Running = ""; // the source of the last program uploaded to its screen
        public ProgramSliders Sliders;
    }

    private static readonly BindingFlags Any = BindingFlags.Public | BindingFlags.NonPublic
        | BindingFlags.Instance;

    private static readonly List<Client> Clients = new List<Client>();
    private static Dictionary<string, object> network; // the owner's last serialized state

    // Copies SyncCode's [UdonSynced] fields, as a serialization does.
    public static void CopySynced(SyncCode from, SyncCode to)
    {
        foreach (FieldInfo f in typeof(SyncCode).GetFields(Any))
        {
            if (f.GetCustomAttributes(typeof(UdonSharp.UdonSyncedAttribute), false).Length > 0)
            {
                f.SetValue(to, f.GetValue(from));
            }
        }
    }

    private static Dictionary<string, object> Snapshot(SyncCode from)
    {
        Dictionary<string, object> state = new Dictionary<string, object>();
        foreach (FieldInfo f in typeof(SyncCode).GetFields(Any))
        {
            if (f.GetCustomAttributes(typeof(UdonSharp.UdonSyncedAttribute), false).Length > 0)
            {
                state[f.Name] = f.GetValue(from);
            }
        }
        return state;
    }

    private static void Receive(Client c, Dictionary<string, object> state)
    {
        foreach (KeyValuePair<string, object> kv in state)
        {
            typeof(SyncCode).GetField(kv.Key, Any).SetValue(c.Sync, kv.Value);
        }
        As(c);
        c.Sync.OnDeserialization();
    }

    private static void As(Client c)
    {
        VRC.SDKBase.Networking.LocalPlayer = c.Player;
    }

    private static void Invoke(object target, string method)
    {
        MethodInfo m = target.GetType().GetMethod(method, Any, null, Type.EmptyTypes, null);
        if (m == null)
        {
            throw new Exception(target.GetType().Name + " has no method " + method);
        }
        m.Invoke(target, null);
    }

    private static Client Join(string name, string text, bool early)
    {
        Client c = new Client();
        c.Name = name;
        c.Player = new VRC.SDKBase.VRCPlayerApi();
        c.Player.displayName = name;
        VRC.SDKBase.VRCPlayerApi.Present.Add(c.Player);
        c.Field = new InputField();
        c.Field.text = text;
        c.Compiler = new Compiler();
        c.Compiler.input = c.Field;
        c.Compiler.output = new Text();
        c.Compiler.screenMat = new Material();
        c.Info = new Text();
        c.Follow = new Toggle();
        c.Sync = new SyncCode();
        c.Follow.isOn = c.Sync.followByDefault; // the prefab's toggle starts as the default
        c.Sync.input = c.Field;
        c.Sync.compiler = c.Compiler;
        c.Sync.sharedInfo = c.Info;
        c.Sync.follow = c.Follow;
        AddGuard(c);
        c.Sync.guard = c.Guard;
        AddSliders(c);
        c.Sync.sliders = c.Sliders;
        if (VRC.SDKBase.Networking.Master == null)
        {
            VRC.SDKBase.Networking.Master = c.Player; // the first to join
        }
        c.Pin = new Toggle();
        c.Lock = new TypingLock();
        c.Lock.input = c.Field;
        c.Lock.pin = c.Pin;
        Clients.Add(c);
        As(c);
        Invoke(c.Guard, "Start");
        Invoke(c.Sliders, "Start");
        c.LastSize = ShownSize(c);
        if (early && network != null)
        {
            Receive(c, network);
        }
        Invoke(c.Sync, "Start");
        if (!early && network != null)
        {
            Receive(c, network);
        }
        return c;
    }

    private static readonly int[] Sizes = { 64, 128, 256, 512 };

    // The screen's sliders as the prefab wires them: the code box, the Compiler, the VM
    // material (the Compiler's), a row, label and UI slider per index.
    private static void AddSliders(Client c)
    {
        ProgramSliders s = new ProgramSliders();
        s.compiler = c.Compiler;
        s.input = c.Field;
        s.materials = new Material[] { c.Compiler.screenMat };
        int n = 8;
        s.sliders = new Slider[n];
        s.labels = new Text[n];
        s.rows = new UnityEngine.GameObject[n];
        for (int k = 0; k < n; k++)
        {
            s.sliders[k] = new Slider();
            s.labels[k] = new Text();
            s.rows[k] = new UnityEngine.GameObject();
        }
        c.Sliders = s;
    }

    private static string Bits(float f)
    {
        return ((uint)BitConverter.ToInt32(BitConverter.GetBytes(f), 0)).ToString();
    }

    // {"names": [name or null per index], "values": [bits], "ui": [bits of each UI slider's
    // value], "min": [bits], "max": [bits], "rows": [shown], "labels": [text],
    // "uniform": [bits of the material's _Sliders] or null, "program": the text they belong to}
    private static string SliderState(Client c)
    {
        ProgramSliders s = c.Sliders;
        StringBuilder sb = new StringBuilder("{\"names\": [");
        for (int k = 0; k < s.sliders.Length; k++)
        {
            sb.Append(k > 0 ? ", " : "").Append(s.named != null && s.named[k] ? Json(s.names[k]) : "null");
        }
        sb.Append("], \"values\": [");
        for (int k = 0; k < s.sliders.Length; k++)
        {
            sb.Append(k > 0 ? ", " : "").Append(s.values != null ? Bits(s.values[k]) : "0");
        }
        sb.Append("], \"ui\": [");
        for (int k = 0; k < s.sliders.Length; k++)
        {
            sb.Append(k > 0 ? ", " : "").Append(Bits(s.sliders[k].value));
        }
        sb.Append("], \"min\": [");
        for (int k = 0; k < s.sliders.Length; k++)
        {
            sb.Append(k > 0 ? ", " : "").Append(Bits(s.sliders[k].minValue));
        }
        sb.Append("], \"max\": [");
        for (int k = 0; k < s.sliders.Length; k++)
        {
            sb.Append(k > 0 ? ", " : "").Append(Bits(s.sliders[k].maxValue));
        }
        sb.Append("], \"rows\": [");
        for (int k = 0; k < s.rows.Length; k++)
        {
            sb.Append(k > 0 ? ", " : "").Append(s.rows[k].activeSelf ? "true" : "false");
        }
        sb.Append("], \"labels\": [");
        for (int k = 0; k < s.labels.Length; k++)
        {
            sb.Append(k > 0 ? ", " : "").Append(Json(s.labels[k].text));
        }
        sb.Append("], \"uniform\": ");
        float[] u;
        if (c.Compiler.screenMat.FloatArrays.TryGetValue("_Sliders", out u))
        {
            sb.Append("[");
            for (int k = 0; k < u.Length; k++)
            {
                sb.Append(k > 0 ? ", " : "").Append(Bits(u[k]));
            }
            sb.Append("]");
        }
        else
        {
            sb.Append("null");
        }
        int notified = 0;
        foreach (Slider bar in s.sliders)
        {
            notified += bar.Notified;
        }
        return sb.Append(", \"notified\": ").Append(notified)
            .Append(", \"program\": ").Append(Json(s.programText)).Append("}").ToString();
    }

    private static void AddGuard(Client c)
    {
        c.Screen = new MeshRenderer();
        c.Materials = new Material[Sizes.Length];
        c.Buffers = new CustomRenderTexture[Sizes.Length];
        for (int k = 0; k < Sizes.Length; k++)
        {
            c.Materials[k] = new Material();
            c.Buffers[k] = new CustomRenderTexture();
            // as the package ships them: only the default resolution (256) updates at load
            c.Buffers[k].updateMode = Sizes[k] == 256 ? CustomRenderTextureUpdateMode.Realtime
                : CustomRenderTextureUpdateMode.OnDemand;
        }
        c.Screen.sharedMaterial = c.Materials[2];
        c.Note = new UnityEngine.GameObject();
        c.Note.SetActive(false); // the prefab's note starts hidden
        c.NoteText = new Text();
        c.Guard = new FrameGuard();
        c.Guard.screens = new MeshRenderer[] { c.Screen };
        c.Guard.screenMaterials = c.Materials;
        c.Guard.buffers = c.Buffers;
        c.Guard.sizes = Sizes;
        c.Guard.compiler = c.Compiler;
        c.Guard.pausedNote = c.Note;
        c.Guard.pausedText = c.NoteText;
        c.QualityButtons = new ScreenQuality[Sizes.Length];
        for (int k = 0; k < Sizes.Length; k++)
        {
            ScreenQuality q = new ScreenQuality();
            q.screens = new MeshRenderer[] { c.Screen };
            q.screenMaterial = c.Materials[k];
            q.buffer = c.Buffers[k];
            q.buffers = c.Buffers;
            q.guard = c.Guard;
            c.QualityButtons[k] = q;
        }
    }

    // The resolution NAME's screen shows (0: a material that is not one of the four).
    private static int ShownSize(Client c)
    {
        int k = Array.IndexOf(c.Materials, c.Screen.sharedMaterial);
        return k < 0 ? 0 : Sizes[k];
    }

    private static bool Paused(Client c)
    {
        foreach (CustomRenderTexture b in c.Buffers)
        {
            if (b.updateMode == CustomRenderTextureUpdateMode.Realtime)
            {
                return false;
            }
        }
        return true;
    }

    // One frame for every player: their frame time, then their guard's Update.
    private static void Frame()
    {
        foreach (Client c in Clients)
        {
            As(c);
            Time.smoothDeltaTime = c.FrameTime;
            Time.deltaTime = c.FrameTime;
            Invoke(c.Guard, "Update");
            Trace(c);
        }
    }

    private static void Trace(Client c)
    {
        c.Frames++;
        int size = ShownSize(c);
        if (size != c.LastSize)
        {
            c.Changes++;
            c.LastSize = size;
        }
        c.MaxSize = Math.Max(c.MaxSize, size);
        c.MinSize = Math.Min(c.MinSize, size);
        if (c.PausedAt < 0 && Paused(c))
        {
            c.PausedAt = c.Frames;
        }
    }

    private static string GuardState(Client c)
    {
        StringBuilder modes = new StringBuilder("[");
        for (int k = 0; k < c.Buffers.Length; k++)
        {
            modes.Append(k > 0 ? ", " : "").Append(Json(c.Buffers[k].updateMode.ToString()));
        }
        string line = "{\"size\": " + ShownSize(c) + ", \"paused\": " + (Paused(c) ? "true" : "false")
            + ", \"note\": " + (c.Note.activeSelf ? "true" : "false")
            + ", \"note_text\": " + Json(c.NoteText.text)
            + ", \"modes\": " + modes.Append("]")
            + ", \"frames\": " + c.Frames + ", \"max\": " + c.MaxSize
            + ", \"min\": " + (c.MinSize == int.MaxValue ? 0 : c.MinSize)
            + ", \"changes\": " + c.Changes + ", \"paused_at\": " + c.PausedAt
            + ", \"ceiling\": " + c.Guard.ceiling + "}";
        c.Frames = 0;
        c.LastSize = ShownSize(c); // the trace starts from what the screen shows now
        c.MaxSize = ShownSize(c);
        c.MinSize = ShownSize(c);
        c.Changes = 0;
        c.PausedAt = -1;
        return line;
    }

    private static Client Find(string name)
    {
        foreach (Client c in Clients)
        {
            if (c.Name == name)
            {
                return c;
            }
        }
        throw new Exception("no player " + name);
    }

    // Serializations requested since the last flush reach everyone else; then every
    // compile runs to its end and every TypingLock sees a frame.
    private static void Settle()
    {
        foreach (Client c in Clients)
        {
            if (c.Sync.SerializationRequests != c.Serializations)
            {
                c.Serializations = c.Sync.SerializationRequests;
                network = Snapshot(c.Sync);
                foreach (Client other in Clients)
                {
                    if (other != c)
                    {
                        Receive(other, network);
                    }
                }
            }
        }
        foreach (Client c in Clients)
        {
            As(c);
            int frames = 0;
            while (c.Compiler.compiling)
            {
                if (++frames > 1000000)
                {
                    throw new Exception("compile did not finish");
                }
                Invoke(c.Compiler, "Update");
            }
            Invoke(c.Lock, "Update");
            for (int frame = 0; frame < 100000 && (c.Sliders.parsing
                 || (bool)typeof(ProgramSliders).GetField("waiting", Any).GetValue(c.Sliders)); frame++)
            {
                Invoke(c.Sliders, "Update");
            }
        }
    }

    // A program's identity on a screen: a hash of the applied program texture ("" before any
    // upload), which tests compare between players.
    private static string Uploaded(Client c)
    {
        Texture value;
        if (!c.Compiler.screenMat.Textures.TryGetValue("_ProgramTex", out value))
        {
            return "";
        }
        Texture2D texture = value as Texture2D;
        if (texture == null || texture.Applied == null)
        {
            return "";
        }
        StringBuilder sb = new StringBuilder();
        foreach (Color v in texture.Applied)
        {
            sb.Append(BitConverter.ToInt32(BitConverter.GetBytes(v.r), 0).ToString("x8"));
            sb.Append(BitConverter.ToInt32(BitConverter.GetBytes(v.g), 0).ToString("x8"));
            sb.Append(BitConverter.ToInt32(BitConverter.GetBytes(v.b), 0).ToString("x8"));
            sb.Append(BitConverter.ToInt32(BitConverter.GetBytes(v.a), 0).ToString("x8"));
        }
        byte[] hash = System.Security.Cryptography.MD5.Create().ComputeHash(
            Encoding.ASCII.GetBytes(sb.ToString()));
        return BitConverter.ToString(hash).Replace("-", "");
    }

    private static string State(Client c)
    {
        return "{\"name\": " + Json(c.Name) + ", \"text\": " + Json(c.Field.text)
            + ", \"out\": " + Json(c.Compiler.output.text) + ", \"info\": " + Json(c.Info.text)
            + ", \"upload\": " + Json(Uploaded(c))
            + ", \"serializations\": " + c.Sync.SerializationRequests
            + ", \"owner\": " + (VRC.SDKBase.Networking.Owner == c.Player ? "true" : "false")
            + ", \"immobilized\": " + (c.Player.Immobilized ? "true" : "false")
            + ", \"immobilize_calls\": " + c.Player.ImmobilizeCalls
            + ", \"jump\": " + c.Player.JumpImpulse.ToString(System.Globalization.CultureInfo.InvariantCulture)
            + ", \"focused\": " + (c.Field.isFocused ? "true" : "false")
            + ", \"own\": " + Json(c.Compiler.ownCompiledText)
            + ", \"own_compiles\": " + c.Compiler.ownCompiles
            + ", \"pin\": " + (c.Pin.isOn ? "true" : "false") + "}";
    }

    private static string Quality(int pressed)
    {
        MeshRenderer[] screens = { new MeshRenderer(), new MeshRenderer(), new MeshRenderer() };
        Material[] materials = new Material[4];
        CustomRenderTexture[] buffers = new CustomRenderTexture[4];
        ScreenQuality[] buttons = new ScreenQuality[4];
        for (int k = 0; k < 4; k++)
        {
            materials[k] = new Material();
            buffers[k] = new CustomRenderTexture();
        }
        for (int k = 0; k < 4; k++)
        {
            buttons[k] = new ScreenQuality();
            buttons[k].screens = screens;
            buttons[k].screenMaterial = materials[k];
            buttons[k].buffer = buffers[k];
            buttons[k].buffers = buffers;
        }
        buttons[pressed].Apply();
        StringBuilder sb = new StringBuilder("{\"screens\": [");
        for (int i = 0; i < screens.Length; i++)
        {
            sb.Append(i > 0 ? ", " : "").Append(Array.IndexOf(materials, screens[i].sharedMaterial));
        }
        sb.Append("], \"modes\": [");
        for (int k = 0; k < 4; k++)
        {
            sb.Append(k > 0 ? ", " : "").Append(Json(buffers[k].updateMode.ToString()));
        }
        return sb.Append("]}").ToString();
    }

    private static string Json(string s)
    {
        return TestJson.Quote(s ?? "");
    }

    public static int Run()
    {
        VRC.SDKBase.Networking.Owner = null;
        VRC.SDKBase.Networking.Master = null;
        VRC.SDKBase.Networking.TestInstanceOwner = null;
        VRC.SDKBase.VRCPlayerApi.Present.Clear();
        string line;
        while ((line = Console.In.ReadLine()) != null)
        {
            if (line.Length == 0)
            {
                continue;
            }
            string[] f = line.Split('\t');
            string arg = f.Length > 2 ? f[2].Replace("\\n", "\n") : "";
            switch (f[0])
            {
                case "join":
                case "joinearly":
                    Join(f[1], arg, f[0] == "joinearly");
                    break;
                case "state":
                    Console.WriteLine(State(Find(f[1])));
                    break;
                case "clock":
                    Time.time += float.Parse(f[1], System.Globalization.CultureInfo.InvariantCulture);
                    break;
                case "quality":
                    Console.WriteLine(Quality(int.Parse(f[1])));
                    continue;
                case "frames":
                    for (int frame = int.Parse(f[1]); frame > 0; frame--)
                    {
                        Frame();
                    }
                    continue;
                case "guard":
                    Console.WriteLine(GuardState(Find(f[1])));
                    continue;
                case "sliders":
                    Console.WriteLine(SliderState(Find(f[1])));
                    continue;
                case "instanceowner":
                    VRC.SDKBase.Networking.TestInstanceOwner =
                        f[1] == "-" ? null : Find(f[1]).Player;
                    continue;
                default:
                    Act(Find(f[1]), f[0], arg);
                    break;
            }
            Settle();
        }
        return 0;
    }

    private static void Act(Client c, string command, string arg)
    {
        As(c);
        switch (command)
        {
            case "type":
                c.Field.text = arg;
                break;
            case "send":
                Invoke(c.Sync, arg);
                break;
            case "example":
                ExampleButton button = new ExampleButton();
                button.input = c.Field;
                button.compiler = c.Compiler;
                button.share = c.Sync;
                button.program = arg;
                button.Load();
                break;
            case "follow":
                c.Follow.isOn = arg == "1";
                c.Sync.FollowChanged();
                break;
            case "focus":
                c.Field.isFocused = arg == "1";
                break;
            case "pin":
                c.Pin.isOn = arg == "1";
                c.Lock.PinChanged();
                break;
            case "pad":
                c.Lock.Interact();
                break;
            case "vr":
                c.Player.InVR = arg == "1";
                break;
            case "stick":
                {
                    System.Globalization.CultureInfo inv = System.Globalization.CultureInfo.InvariantCulture;
                    string[] axes = arg.Split(' ');
                    c.Lock.InputMoveHorizontal(float.Parse(axes[0], inv), new VRC.Udon.Common.UdonInputEventArgs());
                    c.Lock.InputMoveVertical(float.Parse(axes[1], inv), new VRC.Udon.Common.UdonInputEventArgs());
                }
                break;
            case "keepsfocus":
                c.Field.KeepsFocus = arg == "1";
                break;
            case "frametime":
                c.FrameTime = float.Parse(arg, System.Globalization.CultureInfo.InvariantCulture);
                break;
            case "press":
                c.QualityButtons[int.Parse(arg)].Apply();
                break;
            case "anyway":
                c.Guard.RunAnyway();
                break;
            case "compile":
                c.Compiler.Compile();
                c.Guard.ProgramChanged();
                c.Sliders.ProgramChanged();
                break;
            case "slide":
                {
                    string[] kv = arg.Split(' ');
                    Slider bar = c.Sliders.sliders[int.Parse(kv[0])];
                    bar.value = float.Parse(kv[1], System.Globalization.CultureInfo.InvariantCulture);
                    c.Sliders.Moved();
                }
                break;
            case "texels":
                {
                    // every program texture bound to the player's screen gets these lanes
                    // first (slot 0's x y z w, slot 1's, ...), zeros after them
                    foreach (Texture t in c.Compiler.screenMat.Textures.Values)
                    {
                        Texture2D tex = t as Texture2D;
                        if (tex == null)
                        {
                            continue;
                        }
                        string[] lanes = arg.Split(' ');
                        for (int k = 0; k < tex.Pixels.Length; k++)
                        {
                            float[] v = new float[4];
                            for (int j = 0; j < 4; j++)
                            {
                                int at = 4 * k + j;
                                v[j] = at < lanes.Length ? float.Parse(lanes[at], System.Globalization.CultureInfo.InvariantCulture) : 0f;
                            }
                            tex.Pixels[k] = new Color(v[0], v[1], v[2], v[3]);
                        }
                    }
                }
                break;
            case "listing":
                ListingView view = new ListingView();
                view.screenMat = c.Compiler.screenMat;
                view.output = c.Compiler.output;
                view.Show();
                for (int frame = 0; frame < 100000 && (bool)typeof(ListingView).GetField("busy", Any).GetValue(view); frame++)
                {
                    Invoke(view, "Update");
                }
                break;
            default:
                throw new Exception("unknown command " + command);
        }
    }
}
