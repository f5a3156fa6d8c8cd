// Test host (not Udon code): feeds many programs to the generated Compiler in one mono
// process and prints one JSON line per program:
//   {"i": k, "out": output.text, "uploads": n, "upload_ok": bool, "slots": "<hex>", "exc": null|"..."}
// "slots" holds the uploaded float bits (8 hex digits per lane, 4 lanes per slot) up to the
// last slot that is not all zero; the host checks that the rest is zero ("tail_zero").
// Usage: mono Host.exe LISTFILE   (one program path per line; files read as UTF-8, BOM kept)
//        mono Host.exe --repeat N FILE   (time N compilations of one file)

using System;
using System.IO;
using System.Text;
using System.Threading;
using UnityEngine;
using UnityEngine.UI;

public static class Host
{
    private static readonly UTF8Encoding Utf8 = new UTF8Encoding(false, false);

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
        if (args.Length == 3 && args[0] == "--repeat")
        {
            int n = int.Parse(args[1]);
            c.input.text = Utf8.GetString(File.ReadAllBytes(args[2]));
            var sw = System.Diagnostics.Stopwatch.StartNew();
            for (int k = 0; k < n; k++)
            {
                c.Compile();
            }
            sw.Stop();
            Console.WriteLine("{\"out\": " + Json(c.output.text) + ", \"ms_per_compile\": "
                + (sw.Elapsed.TotalMilliseconds / n).ToString("R", System.Globalization.CultureInfo.InvariantCulture) + "}");
            return 0;
        }
        if (args.Length == 1 && args[0] == "--behaviours")
        {
            Console.WriteLine(Behaviours());
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
            c.input.text = Utf8.GetString(File.ReadAllBytes(paths[k]));
            c.output.text = "";
            c.screenMat = new Material();
            string exc = null;
            try
            {
                c.Compile();
            }
            catch (Exception e)
            {
                exc = e.GetType().Name + ": " + e.Message + " " + e.StackTrace;
            }
            stdout.WriteLine(Record(k, c, exc));
        }
        stdout.Flush();
        return 0;
    }

    // Drives Compiler, SyncCode, ExampleButton and the input relay once; prints what they did.
    // Two clients: the local one (c, sync) presses Compile; the remote one (c2, sync2) only
    // receives the synced text. Networking's stub keeps one owner for the SyncCode object.
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
        c.sync = sync;

        // the Compile button: share (take ownership, sync the text), then compile locally
        VRC.SDKBase.Networking.LocalPlayer = me;
        VRC.SDKBase.Networking.Owner = other;
        field.text = "x = 1; x";
        c.Compile();
        bool owner = VRC.SDKBase.Networking.Owner == me;
        string compileOut = c.output.text;
        int compileUploads = c.screenMat.ArrayUploads;
        int compileSerializations = sync.SerializationRequests;
        string compileSynced = (string)synced.GetValue(sync);

        // Share alone syncs but does not compile
        field.text = "y = 2; y";
        int uploadsBeforeShare = c.screenMat.ArrayUploads;
        sync.Share();
        bool shareOnlySyncs = sync.SerializationRequests == compileSerializations + 1
            && (string)synced.GetValue(sync) == "y = 2; y"
            && c.screenMat.ArrayUploads == uploadsBeforeShare && c.output.text == compileOut;
        field.text = "x = 1; x";
        c.Compile();

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
        c2.sync = sync2;
        synced.SetValue(sync2, synced.GetValue(sync));
        sync2.OnDeserialization();
        // receiving must not share back: no serialization, no ownership change
        bool remoteQuiet = sync2.SerializationRequests == 0 && VRC.SDKBase.Networking.Owner == me;
        VRC.SDKBase.Networking.LocalPlayer = me;

        // an example button: loads its program and compiles through Compiler.Compile (shared)
        ExampleButton button = new ExampleButton();
        button.input = field;
        button.compiler = c;
        button.program = "float3(1, 0, 0)";
        int serializationsBeforeExample = sync.SerializationRequests;
        button.Load();
        string afterExample = c.output.text;
        string exampleText = field.text;
        bool exampleShared = sync.SerializationRequests == serializationsBeforeExample + 1
            && (string)synced.GetValue(sync) == "float3(1, 0, 0)";

        // errors: shared like any text, but nothing is uploaded
        field.text = "x = ;";
        int before = c.screenMat.ArrayUploads;
        c.Compile();
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
        c.Compile();
        string maxOut = c.output.text;
        bool maxSynced = sync.SerializationRequests == serializationsBeforeMax + 1
            && (string)synced.GetValue(sync) == largest;
        field.text = largest + " ";
        int serializationsBeforeLong = sync.SerializationRequests;
        c.Compile();
        string longOut = c.output.text;
        bool longNotSynced = sync.SerializationRequests == serializationsBeforeLong
            && (string)synced.GetValue(sync) == largest;

        // a compiler without SyncCode compiles locally
        Compiler c3 = new Compiler();
        c3.input = new InputField();
        c3.input.text = "float3(0, 1, 0)";
        c3.output = new Text();
        c3.screenMat = new Material();
        c3.Compile();

        c.InputUse(true, null);
        c.InputGrab(true, null);
        c.InputMoveHorizontal(0.25f, null);
        c.InputLookVertical(-0.5f, null);
        typeof(Compiler).GetMethod("Update", System.Reflection.BindingFlags.NonPublic
            | System.Reflection.BindingFlags.Instance).Invoke(c, null);
        Vector4 b = c.screenMat.Vectors["_InputButton"];
        Vector4 a = c.screenMat.Vectors["_InputAxis"];

        return "{\"compile_out\": " + Json(compileOut) + ", \"compile_uploads\": " + compileUploads
            + ", \"owner\": " + Bool(owner)
            + ", \"compile_serializations\": " + compileSerializations
            + ", \"compile_synced\": " + Json(compileSynced)
            + ", \"share_only_syncs\": " + Bool(shareOnlySyncs)
            + ", \"remote_text\": " + Json(field2.text) + ", \"remote_out\": " + Json(c2.output.text)
            + ", \"remote_uploads\": " + c2.screenMat.ArrayUploads
            + ", \"remote_quiet\": " + Bool(remoteQuiet)
            + ", \"example_text\": " + Json(exampleText) + ", \"example_out\": " + Json(afterExample)
            + ", \"example_shared\": " + Bool(exampleShared)
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
            + a.w.ToString(System.Globalization.CultureInfo.InvariantCulture) + "]}";
    }

    private static string Bool(bool b)
    {
        return b ? "true" : "false";
    }

    private static string Record(int k, Compiler c, string exc)
    {
        Material m = c.screenMat;
        StringBuilder sb = new StringBuilder();
        sb.Append("{\"i\": ").Append(k);
        sb.Append(", \"out\": ").Append(Json(c.output.text));
        sb.Append(", \"uploads\": ").Append(m.ArrayUploads);
        bool uploadOk = m.ArrayUploads == 4;
        Vector4[] all = new Vector4[4 * 1023];
        for (int a = 0; a < 4 && uploadOk; a++)
        {
            Vector4[] arr;
            if (!m.Arrays.TryGetValue("_Program" + a, out arr) || arr.Length != 1023)
            {
                uploadOk = false;
                break;
            }
            Array.Copy(arr, 0, all, a * 1023, 1023);
        }
        sb.Append(", \"upload_ok\": ").Append(uploadOk ? "true" : "false");
        if (uploadOk)
        {
            int last = -1;
            for (int s = 0; s < all.Length; s++)
            {
                if (Bits(all[s].x) != 0 || Bits(all[s].y) != 0 || Bits(all[s].z) != 0 || Bits(all[s].w) != 0)
                {
                    last = s;
                }
            }
            sb.Append(", \"slots\": \"");
            for (int s = 0; s <= last; s++)
            {
                sb.Append(Bits(all[s].x).ToString("x8")).Append(Bits(all[s].y).ToString("x8"));
                sb.Append(Bits(all[s].z).ToString("x8")).Append(Bits(all[s].w).ToString("x8"));
            }
            sb.Append("\"");
        }
        sb.Append(", \"exc\": ").Append(exc == null ? "null" : Json(exc));
        sb.Append("}");
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
        if (s == null)
        {
            return "null";
        }
        StringBuilder sb = new StringBuilder("\"");
        foreach (char ch in s)
        {
            if (ch == '"' || ch == '\\')
            {
                sb.Append('\\').Append(ch);
            }
            else if (ch < 0x20 || ch > 0x7E)
            {
                sb.Append("\\u").Append(((int)ch).ToString("x4"));
            }
            else
            {
                sb.Append(ch);
            }
        }
        return sb.Append('"').ToString();
    }
}
