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

    // Drives SyncCode, ExampleButton and the input relay once; prints what they did.
    private static string Behaviours()
    {
        Compiler c = new Compiler();
        InputField field = new InputField();
        c.input = field;
        c.output = new Text();
        c.screenMat = new Material();
        SyncCode sync = new SyncCode();
        sync.input = field;
        sync.compiler = c;
        field.text = "x = 1; x";
        VRC.SDKBase.Networking.Owner = null;
        sync.Submit();
        bool owner = VRC.SDKBase.Networking.Owner == VRC.SDKBase.Networking.LocalPlayer;
        string afterSubmit = c.output.text;
        int uploadsAfterSubmit = c.screenMat.ArrayUploads;

        // a remote client: its own input field and compiler, fed by deserialization
        Compiler c2 = new Compiler();
        InputField field2 = new InputField();
        c2.input = field2;
        c2.output = new Text();
        c2.screenMat = new Material();
        SyncCode sync2 = new SyncCode();
        sync2.input = field2;
        sync2.compiler = c2;
        typeof(SyncCode).GetField("syncedSource", System.Reflection.BindingFlags.NonPublic
            | System.Reflection.BindingFlags.Instance).SetValue(sync2, field.text);
        sync2.OnDeserialization();

        ExampleButton button = new ExampleButton();
        button.input = field;
        button.compiler = c;
        button.program = "float3(1, 0, 0)";
        button.Load();
        string afterExample = c.output.text;
        string exampleText = field.text;

        field.text = "x = ;";
        int before = c.screenMat.ArrayUploads;
        c.Compile();
        string afterError = c.output.text;
        int uploadsOnError = c.screenMat.ArrayUploads - before;

        c.InputUse(true, null);
        c.InputGrab(true, null);
        c.InputMoveHorizontal(0.25f, null);
        c.InputLookVertical(-0.5f, null);
        typeof(Compiler).GetMethod("Update", System.Reflection.BindingFlags.NonPublic
            | System.Reflection.BindingFlags.Instance).Invoke(c, null);
        Vector4 b = c.screenMat.Vectors["_InputButton"];
        Vector4 a = c.screenMat.Vectors["_InputAxis"];

        return "{\"submit_out\": " + Json(afterSubmit) + ", \"submit_uploads\": " + uploadsAfterSubmit
            + ", \"owner\": " + (owner ? "true" : "false")
            + ", \"serializations\": " + sync.SerializationRequests
            + ", \"remote_text\": " + Json(field2.text) + ", \"remote_out\": " + Json(c2.output.text)
            + ", \"example_text\": " + Json(exampleText) + ", \"example_out\": " + Json(afterExample)
            + ", \"error_out\": " + Json(afterError) + ", \"uploads_on_error\": " + uploadsOnError
            + ", \"button\": [" + b.x + ", " + b.y + ", " + b.z + ", " + b.w + "]"
            + ", \"axis\": [" + a.x.ToString(System.Globalization.CultureInfo.InvariantCulture) + ", "
            + a.y.ToString(System.Globalization.CultureInfo.InvariantCulture) + ", "
            + a.z.ToString(System.Globalization.CultureInfo.InvariantCulture) + ", "
            + a.w.ToString(System.Globalization.CultureInfo.InvariantCulture) + "]}";
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
