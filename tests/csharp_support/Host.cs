// Test host (not Udon code): feeds many programs to the generated Compiler in one mono
// process and prints one JSON line per program:
//   {"i": k, "out": output.text, "uploads": n, "upload_events": e, "upload_ok": bool,
//    "slots": "<hex>", "first_slots": "<hex>" (of two uploads, the first), "frames": f,
//    "exc": null|"..."}
// "slots" holds the program texture's texels as the material has it bound (float bits, 8 hex
// digits per lane, 4 lanes per texel, slot k = texel k) up to the last texel that is not all
// zero. "uploads" counts SetTexture (and SetVectorArray) calls, "upload_events" the Udon
// events they happened in (1 when the program was uploaded at once).
// A compile may run across frames: Compile() starts it and, while the Compiler's `compiling`
// field is true, the host delivers frames (one Update() call each) until it is done, at most
// FrameCap of them ("exc" is then "NOT-FINISHED: ..."); "frames" counts them. A Compiler
// without a `compiling` member finishes inside Compile() (frames 0).
// Usage: mono Host.exe LISTFILE   (one program path per line; files read as UTF-8, BOM kept)
//        mono Host.exe --repeat N FILE   (time N compilations of one file)
//        mono Host.exe --behaviours      (Compiler, SyncCode, ExampleButton together)
//        mono Host.exe --players         (sessions of simulated players: Players.cs)
//        mono Host.exe --probe           ({"compiling_member": bool, "update_method": bool,
//                                          "frame_cap": N})
//        mono Host.exe --overlap A B C D (compiles interrupted by new ones; see Overlap)

using System;
using System.IO;
using System.Collections.Generic;
using System.Reflection;
using System.Text;
using System.Threading;
using UnityEngine;
using UnityEngine.UI;
using PSL.Shaderception;

public static class Host
{
    private static readonly UTF8Encoding Utf8 = new UTF8Encoding(false, false);

    // Frames one compile may take before the host gives up on it.
    private const int FrameCap = 5000000;

    // Compiler.Update is private (a Unity message); bound per compiler with UpdateOf.
    private static readonly MethodInfo UpdateMethod = typeof(Compiler).GetMethod("Update",
        BindingFlags.NonPublic | BindingFlags.Public | BindingFlags.Instance);

    // The sliced compiler's `public bool compiling`; null for a compiler that has none (it
    // finishes inside Compile, so the host delivers no frames).
    private static readonly FieldInfo CompilingField = typeof(Compiler).GetField("compiling",
        BindingFlags.Public | BindingFlags.Instance);
    private static readonly PropertyInfo CompilingProperty = CompilingField != null ? null
        : typeof(Compiler).GetProperty("compiling", BindingFlags.Public | BindingFlags.Instance);

    private static bool HasCompilingMember
    {
        get { return CompilingField != null || CompilingProperty != null; }
    }

    private sealed class NotFinishedException : Exception
    {
        public NotFinishedException(int frames)
            : base("NOT-FINISHED: still compiling after " + frames + " frames")
        {
        }
    }

    private static bool Compiling(Compiler c)
    {
        if (CompilingField != null)
        {
            return (bool)CompilingField.GetValue(c);
        }
        return CompilingProperty != null && (bool)CompilingProperty.GetValue(c, null);
    }

    private static Action UpdateOf(Compiler c)
    {
        return (Action)Delegate.CreateDelegate(typeof(Action), c, UpdateMethod);
    }

    // Starts a new Udon event (the material stub tags SetVectorArray calls with it).
    private static void BeginEvent(Compiler c)
    {
        if (c.screenMat != null)
        {
            c.screenMat.BeginEvent();
        }
    }

    // Delivers frames (one Update each) while c is compiling; adds them to `frames`.
    private static void Finish(Compiler c, Action update, ref int frames)
    {
        int start = frames;
        while (Compiling(c))
        {
            if (frames - start >= FrameCap)
            {
                throw new NotFinishedException(frames - start);
            }
            BeginEvent(c);
            update();
            frames++;
        }
    }

    // Compile() as the button press, then frames until the compile is done.
    private static int CompileAndFinish(Compiler c, Action update)
    {
        int frames = 0;
        BeginEvent(c);
        c.Compile();
        Finish(c, update, ref frames);
        return frames;
    }

    public static int Main(string[] args)
    {
        int code = 0;
        // A big stack: inlining re-parses bodies recursively (Udon keeps its own stack).
        Thread t = new Thread(() => { code = Run(args); }, 512 * 1024 * 1024);
        t.Start();
        t.Join();
        return code;
    }

    private static int Run(string[] args)
    {
        Compiler c = new Compiler();
        c.input = new InputField();
        c.output = new Text();
        c.screenMat = new Material();
        Action update = UpdateOf(c);
        if (args.Length == 3 && args[0] == "--repeat")
        {
            int n = int.Parse(args[1]);
            c.input.text = Utf8.GetString(File.ReadAllBytes(args[2]));
            int frames = 0;
            var sw = System.Diagnostics.Stopwatch.StartNew();
            for (int k = 0; k < n; k++)
            {
                c.screenMat.Uploads.Clear();  // keep memory flat over many repeats
                frames = CompileAndFinish(c, update);
            }
            sw.Stop();
            Console.WriteLine("{\"out\": " + Json(c.output.text) + ", \"ms_per_compile\": "
                + (sw.Elapsed.TotalMilliseconds / n).ToString("R", System.Globalization.CultureInfo.InvariantCulture)
                + ", \"frames\": " + frames + "}");
            return 0;
        }
        if (args.Length == 1 && args[0] == "--players")
        {
            return Players.Run();
        }
        if (args.Length == 1 && args[0] == "--behaviours")
        {
            Console.WriteLine(Behaviours());
            return 0;
        }
        if (args.Length == 1 && args[0] == "--probe")
        {
            Console.WriteLine("{\"compiling_member\": " + Bool(HasCompilingMember)
                + ", \"update_method\": " + Bool(UpdateMethod != null)
                + ", \"frame_cap\": " + FrameCap + "}");
            return 0;
        }
        if (args.Length == 5 && args[0] == "--overlap")
        {
            string[] texts = new string[4];
            for (int k = 0; k < 4; k++)
            {
                texts[k] = Utf8.GetString(File.ReadAllBytes(args[k + 1]));
            }
            TextWriter w = new StreamWriter(Console.OpenStandardOutput(), new UTF8Encoding(false));
            w.WriteLine(Overlap(texts[0], texts[1], texts[2], texts[3]));
            w.Flush();
            return 0;
        }
        string[] paths = File.ReadAllLines(args[0]);
        TextWriter stdout = new StreamWriter(Console.OpenStandardOutput(), new UTF8Encoding(false));
        for (int k = 0; k < paths.Length; k++)
        {
            if (paths[k].Length == 0)
            {
                continue;
            }
            string text = Utf8.GetString(File.ReadAllBytes(paths[k]));
            // the world creator's switches: -O0 (`optimize` off), -O1 (on), -O2 (on, with
            // `superinstructions`: registry.INWORLD_OPTIMIZE_LEVELS)
            for (int level = 0; level < 3; level++)
            {
                c.optimize = level >= 1;
                c.superinstructions = level == 2;
                c.input.text = text;
                c.output.text = "";
                c.screenMat = new Material();
                string exc = null;
                int frames = 0;
                try
                {
                    BeginEvent(c);
                    c.Compile();
                    Finish(c, update, ref frames);
                }
                catch (NotFinishedException e)
                {
                    exc = e.Message;
                }
                catch (Exception e)
                {
                    exc = e.GetType().Name + ": " + e.Message + " " + e.StackTrace;
                }
                stdout.WriteLine(Record(k, c, exc, frames).Replace("{\"i\": ", "{\"o\": " + level + ", \"i\": "));
            }
            c.optimize = false;
            c.superinstructions = false;
        }
        stdout.Flush();
        return 0;
    }

    // One delivered event, or a run of identical Update frames (count > 1) in --overlap.
    private sealed class Ev
    {
        public string Step;
        public string Call;
        public int Count = 1;
        public bool Compiling;
        public string Out;
        public List<string> Names = new List<string>();
        public string Slots;  // the program of this event's upload, when it set all 4 arrays
    }

    // --overlap A B C D: a compile interrupted by a new one must never reach the material.
    //  (a) A compiled to completion (the program on the material before the rest);
    //  (b) Compile() B, 3 frames, text = C, Compile() again (a press during a compile), finish;
    //  (c) Compile() A, 2 frames, text = D, CompileReceived() (synced text arriving during a
    //      compile), finish.
    // Every event is recorded (compiling, output.text, the SetVectorArray calls in it); runs
    // of identical Update frames without uploads are merged into one record with "count".
    private static string Overlap(string a, string b, string cText, string d)
    {
        Compiler c = new Compiler();
        c.input = new InputField();
        c.output = new Text();
        Material m = new Material();
        c.screenMat = m;
        Action update = UpdateOf(c);
        List<Ev> events = new List<Ev>();
        StringBuilder steps = new StringBuilder();
        string exc = null;
        string step = "a";
        int frames = 0;
        try
        {
            c.input.text = a;
            Deliver(c, events, step, "Compile", c.Compile);
            frames = RunToEnd(c, events, step, update);
            AppendStep(steps, step, c, frames, null);

            step = "b";
            Interrupted(c, events, steps, step, update, b, 3, cText, "Compile", c.Compile);
            step = "c";
            Interrupted(c, events, steps, step, update, a, 2, d, "CompileReceived", c.CompileReceived);
        }
        catch (NotFinishedException e)
        {
            exc = "step " + step + ": " + e.Message;
        }
        catch (Exception e)
        {
            exc = "step " + step + ": " + e.GetType().Name + ": " + e.Message + " " + e.StackTrace;
        }
        StringBuilder sb = new StringBuilder();
        sb.Append("{\"compiling_member\": ").Append(Bool(HasCompilingMember));
        sb.Append(", \"events\": [");
        for (int k = 0; k < events.Count; k++)
        {
            Ev e = events[k];
            if (k > 0)
            {
                sb.Append(", ");
            }
            sb.Append("{\"step\": ").Append(Json(e.Step));
            sb.Append(", \"call\": ").Append(Json(e.Call));
            sb.Append(", \"count\": ").Append(e.Count);
            sb.Append(", \"compiling\": ").Append(Bool(e.Compiling));
            sb.Append(", \"out\": ").Append(Json(e.Out));
            sb.Append(", \"uploads\": ").Append(e.Names.Count);
            sb.Append(", \"upload_names\": [");
            for (int n = 0; n < e.Names.Count; n++)
            {
                sb.Append(n > 0 ? ", " : "").Append(Json(e.Names[n]));
            }
            sb.Append("], \"upload_slots\": ").Append(e.Slots == null ? "null" : "\"" + e.Slots + "\"");
            sb.Append("}");
        }
        sb.Append("], \"steps\": {").Append(steps.ToString()).Append("}");
        sb.Append(", \"exc\": ").Append(exc == null ? "null" : Json(exc));
        sb.Append("}");
        return sb.ToString();
    }

    // One interrupted step: Compile `first`, play `before` frames, then `second` arrives
    // through `call` (a Compile press or received text) and runs to the end.
    private static void Interrupted(Compiler c, List<Ev> events, StringBuilder steps, string step,
                                    Action update, string first, int before, string second,
                                    string callName, Action call)
    {
        c.input.text = first;
        Deliver(c, events, step, "Compile", c.Compile);
        int frames = Frames(c, events, step, update, before);
        bool busy = Compiling(c);
        c.input.text = second;
        Deliver(c, events, step, callName, call);
        frames += RunToEnd(c, events, step, update);
        AppendStep(steps, step, c, frames, busy);
    }

    private static void AppendStep(StringBuilder steps, string step, Compiler c, int frames, object busy)
    {
        string slots = SlotsHex(c.screenMat);
        if (steps.Length > 0)
        {
            steps.Append(", ");
        }
        steps.Append(Json(step)).Append(": {\"out\": ").Append(Json(c.output.text));
        steps.Append(", \"slots\": ").Append(slots == null ? "null" : "\"" + slots + "\"");
        steps.Append(", \"frames\": ").Append(frames);
        steps.Append(", \"compiling_at_interrupt\": ").Append(busy == null ? "null" : Bool((bool)busy));
        steps.Append("}");
    }

    // Delivers one event and records what it did.
    private static void Deliver(Compiler c, List<Ev> events, string step, string call, Action act)
    {
        Material m = c.screenMat;
        m.BeginEvent();
        int e = m.Event;
        act();
        Ev ev = new Ev();
        ev.Step = step;
        ev.Call = call;
        ev.Compiling = Compiling(c);
        ev.Out = c.output.text;
        Dictionary<string, Vector4[]> set = new Dictionary<string, Vector4[]>();
        foreach (ArrayUpload u in m.UploadsIn(e))
        {
            ev.Names.Add(u.Name);
            set[u.Name] = u.Values;
        }
        Vector4[] texels;
        if (ev.Names.Count == 1 && set.TryGetValue(ProgramTexture, out texels) && texels != null)
        {
            ev.Slots = TexelsHex(texels);
        }
        Ev last = events.Count > 0 ? events[events.Count - 1] : null;
        if (last != null && call == "Update" && last.Call == "Update" && last.Step == step
            && last.Compiling == ev.Compiling && last.Out == ev.Out
            && last.Names.Count == 0 && ev.Names.Count == 0)
        {
            last.Count++;
            return;
        }
        events.Add(ev);
    }

    // Up to `max` frames, stopping early when the compile is done; returns how many ran.
    private static int Frames(Compiler c, List<Ev> events, string step, Action update, int max)
    {
        int n = 0;
        while (n < max && Compiling(c))
        {
            Deliver(c, events, step, "Update", update);
            n++;
        }
        return n;
    }

    private static int RunToEnd(Compiler c, List<Ev> events, string step, Action update)
    {
        int n = 0;
        while (Compiling(c))
        {
            if (n >= FrameCap)
            {
                throw new NotFinishedException(n);
            }
            Deliver(c, events, step, "Update", update);
            n++;
        }
        return n;
    }

    // Drives Compiler, SyncCode, ExampleButton and the input relay once; prints what they did.
    // Two clients: the local one (c, sync) compiles and shares; the remote one (c2, sync2)
    // only receives the synced state. Networking's stub keeps one owner for the SyncCode
    // object. (Players.cs simulates whole sessions of several players.)
    private static string Behaviours()
    {
        System.Reflection.FieldInfo synced = typeof(SyncCode).GetField("syncedSource",
            System.Reflection.BindingFlags.NonPublic | System.Reflection.BindingFlags.Instance);
        VRC.SDKBase.VRCPlayerApi me = new VRC.SDKBase.VRCPlayerApi();
        VRC.SDKBase.VRCPlayerApi other = new VRC.SDKBase.VRCPlayerApi();
        Compiler c = new Compiler();
        InputField field = new InputField();
        c.input = field;
        c.output = new Text();
        c.screenMat = new Material();
        SyncCode sync = new SyncCode();
        sync.input = field;
        sync.compiler = c;
        Action update = UpdateOf(c);
        int frames = 0;  // all frames delivered to the compilers here

        // the Compile button: compiles for this player only (no ownership, no serialization)
        VRC.SDKBase.Networking.LocalPlayer = me;
        VRC.SDKBase.Networking.Owner = other;
        field.text = "x = 1; x";
        frames += CompileAndFinish(c, update);
        bool compileLocal = sync.SerializationRequests == 0
            && VRC.SDKBase.Networking.Owner == other;
        string compileOut = c.output.text;
        int compileUploads = c.screenMat.ArrayUploads;

        // the Share button: takes ownership, syncs the text once, and runs it here too
        BeginEvent(c);
        UnityEngine.Time.time += 60f; // past SyncCode's share interval
        sync.Share();
        Finish(c, update, ref frames);
        bool owner = VRC.SDKBase.Networking.Owner == me;
        int shareSerializations = sync.SerializationRequests;
        string shareSynced = (string)synced.GetValue(sync);
        string shareOut = c.output.text;

        // a remote client: its own input field, compiler and SyncCode, fed by deserialization
        VRC.SDKBase.Networking.LocalPlayer = other;
        Compiler c2 = new Compiler();
        InputField field2 = new InputField();
        c2.input = field2;
        c2.output = new Text();
        c2.screenMat = new Material();
        SyncCode sync2 = new SyncCode();
        sync2.input = field2;
        sync2.compiler = c2;
        Players.CopySynced(sync, sync2);
        BeginEvent(c2);
        sync2.OnDeserialization();
        Finish(c2, UpdateOf(c2), ref frames);
        // receiving must not share back: no serialization, no ownership change
        bool remoteQuiet = sync2.SerializationRequests == 0 && VRC.SDKBase.Networking.Owner == me;
        VRC.SDKBase.Networking.LocalPlayer = me;

        // an example button without SyncCode: loads its program and compiles it, locally
        ExampleButton button = new ExampleButton();
        button.input = field;
        button.compiler = c;
        button.program = "float3(1, 0, 0)";
        int serializationsBeforeExample = sync.SerializationRequests;
        BeginEvent(c);
        button.Load();
        Finish(c, update, ref frames);
        string afterExample = c.output.text;
        string exampleText = field.text;
        bool exampleLocal = sync.SerializationRequests == serializationsBeforeExample
            && (string)synced.GetValue(sync) == "x = 1; x";

        // errors: shared like any text, but nothing is uploaded
        field.text = "x = ;";
        int before = c.screenMat.ArrayUploads;
        BeginEvent(c);
        UnityEngine.Time.time += 60f; // past SyncCode's share interval
        sync.Share();
        Finish(c, update, ref frames);
        string afterError = c.output.text;
        int uploadsOnError = c.screenMat.ArrayUploads - before;
        bool errorShared = (string)synced.GetValue(sync) == "x = ;";

        // the largest text an InputField holds (LIMITS.source_chars): shared and compiled;
        // one character more: not shared (the synced text stays), compiled locally to E004
        int limit = (int)typeof(Compiler).GetField("LIMIT_SOURCE_CHARS", System.Reflection.BindingFlags.NonPublic
            | System.Reflection.BindingFlags.Static).GetValue(null);
        string largest = LargestProgram(limit);
        field.text = largest;
        int serializationsBeforeMax = sync.SerializationRequests;
        BeginEvent(c);
        UnityEngine.Time.time += 60f; // past SyncCode's share interval
        sync.Share();
        Finish(c, update, ref frames);
        string maxOut = c.output.text;
        bool maxSynced = sync.SerializationRequests == serializationsBeforeMax + 1
            && (string)synced.GetValue(sync) == largest;
        field.text = largest + " ";
        int serializationsBeforeLong = sync.SerializationRequests;
        BeginEvent(c);
        UnityEngine.Time.time += 60f; // past SyncCode's share interval
        sync.Share();
        Finish(c, update, ref frames);
        string longOut = c.output.text;
        bool longNotSynced = sync.SerializationRequests == serializationsBeforeLong
            && (string)synced.GetValue(sync) == largest;

        // a compiler without SyncCode compiles locally
        Compiler c3 = new Compiler();
        c3.input = new InputField();
        c3.input.text = "float3(0, 1, 0)";
        c3.output = new Text();
        c3.screenMat = new Material();
        frames += CompileAndFinish(c3, UpdateOf(c3));

        c.InputUse(true, null);
        c.InputGrab(true, null);
        c.InputMoveHorizontal(0.25f, null);
        c.InputLookVertical(-0.5f, null);
        BeginEvent(c);
        update();
        Vector4 b = c.screenMat.Vectors["_InputButton"];
        Vector4 a = c.screenMat.Vectors["_InputAxis"];

        return "{\"compile_out\": " + Json(compileOut) + ", \"compile_uploads\": " + compileUploads
            + ", \"compile_local\": " + Bool(compileLocal) + ", \"owner\": " + Bool(owner)
            + ", \"share_serializations\": " + shareSerializations
            + ", \"share_synced\": " + Json(shareSynced) + ", \"share_out\": " + Json(shareOut)
            + ", \"remote_text\": " + Json(field2.text) + ", \"remote_out\": " + Json(c2.output.text)
            + ", \"remote_uploads\": " + c2.screenMat.ArrayUploads
            + ", \"remote_quiet\": " + Bool(remoteQuiet)
            + ", \"example_text\": " + Json(exampleText) + ", \"example_out\": " + Json(afterExample)
            + ", \"example_local\": " + Bool(exampleLocal)
            + ", \"error_out\": " + Json(afterError) + ", \"uploads_on_error\": " + uploadsOnError
            + ", \"error_shared\": " + Bool(errorShared)
            + ", \"largest\": " + Json(largest) + ", \"max_out\": " + Json(maxOut)
            + ", \"max_synced\": " + Bool(maxSynced)
            + ", \"long_out\": " + Json(longOut) + ", \"long_not_synced\": " + Bool(longNotSynced)
            + ", \"no_sync_out\": " + Json(c3.output.text) + ", \"no_sync_uploads\": " + c3.screenMat.ArrayUploads
            + ", \"button\": [" + b.x + ", " + b.y + ", " + b.z + ", " + b.w + "]"
            + ", \"axis\": [" + a.x.ToString(System.Globalization.CultureInfo.InvariantCulture) + ", "
            + a.y.ToString(System.Globalization.CultureInfo.InvariantCulture) + ", "
            + a.z.ToString(System.Globalization.CultureInfo.InvariantCulture) + ", "
            + a.w.ToString(System.Globalization.CultureInfo.InvariantCulture) + "]"
            + ", \"frames\": " + frames + "}";
    }

    private static string Bool(bool b)
    {
        return b ? "true" : "false";
    }

    private static string Record(int k, Compiler c, string exc, int frames)
    {
        Material m = c.screenMat;
        StringBuilder sb = new StringBuilder();
        sb.Append("{\"i\": ").Append(k);
        sb.Append(", \"out\": ").Append(Json(c.output.text));
        sb.Append(", \"uploads\": ").Append(m.ArrayUploads);
        sb.Append(", \"upload_events\": ").Append(m.UploadEvents());
        // one upload, or with `optimize` on two: the -O0 program, then the -O1 one over it
        string slots = m.ArrayUploads >= 1 && m.ArrayUploads <= 2 ? SlotsHex(m) : null;
        sb.Append(", \"upload_ok\": ").Append(slots != null ? "true" : "false");
        if (slots != null)
        {
            sb.Append(", \"slots\": \"").Append(slots).Append("\"");
        }
        if (m.ArrayUploads == 2 && m.Uploads[0].Values != null)
        {
            sb.Append(", \"first_slots\": \"").Append(TexelsHex(m.Uploads[0].Values)).Append("\"");
        }
        sb.Append(", \"frames\": ").Append(frames);
        sb.Append(", \"exc\": ").Append(exc == null ? "null" : Json(exc));
        sb.Append("}");
        return sb.ToString();
    }

    // The program texture's material property and shape (registry LIMITS.texture_*).
    private const string ProgramTexture = "_ProgramTex";
    private const int TextureWidth = 256;
    private const int TextureHeight = 128;

    // The program as the material's texture holds it (its texels after the last Apply), as
    // TexelsHex writes it; null when no texture is bound or it is not the program texture the
    // VM reads exactly (RGBAFloat, TextureWidth x TextureHeight, no mipmaps, linear, point
    // filtering, clamped) or was never applied.
    private static string SlotsHex(Material m)
    {
        Texture bound;
        if (!m.Textures.TryGetValue(ProgramTexture, out bound))
        {
            return null;
        }
        Texture2D t = bound as Texture2D;
        if (t == null || t.Applied == null || t.Width != TextureWidth || t.Height != TextureHeight
            || t.Format != TextureFormat.RGBAFloat || t.MipChain || !t.Linear
            || t.filterMode != FilterMode.Point || t.wrapMode != TextureWrapMode.Clamp)
        {
            return null;
        }
        Vector4[] texels = new Vector4[t.Applied.Length];
        for (int k = 0; k < texels.Length; k++)
        {
            texels[k] = new Vector4(t.Applied[k].r, t.Applied[k].g, t.Applied[k].b, t.Applied[k].a);
        }
        return TexelsHex(texels);
    }

    // Texels (slot k = texel k, row-major) as hex, 8 digits per lane and 4 lanes per texel,
    // up to the last texel that is not all zero.
    private static string TexelsHex(Vector4[] all)
    {
        int last = -1;
        for (int s = 0; s < all.Length; s++)
        {
            if (Bits(all[s].x) != 0 || Bits(all[s].y) != 0 || Bits(all[s].z) != 0 || Bits(all[s].w) != 0)
            {
                last = s;
            }
        }
        StringBuilder sb = new StringBuilder(32 * (last + 1));
        for (int s = 0; s <= last; s++)
        {
            sb.Append(Bits(all[s].x).ToString("x8")).Append(Bits(all[s].y).ToString("x8"));
            sb.Append(Bits(all[s].z).ToString("x8")).Append(Bits(all[s].w).ToString("x8"));
        }
        return sb.ToString();
    }

    private static uint Bits(float f)
    {
        return BitConverter.ToUInt32(BitConverter.GetBytes(f), 0);
    }

    // A real program padded with a comment to exactly `size` characters, the last of them
    // non-ASCII: a text whose UTF-16 length is what the limit counts.
    private static string LargestProgram(int size)
    {
        string head = "float3(uv().x, uv().y, 0.5)\n// ";
        return head + new string('x', size - head.Length - 1) + "\u00e9";
    }

    private static string Json(string s)
    {
        return TestJson.Quote(s);
    }
}
