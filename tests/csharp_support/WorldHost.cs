// Scenario host for the world's program loader and saves (ProgramLoader, ProgramSaves) with
// the in-world Compiler, under mono, against stand-ins that behave as VRChat documents
// (UdonStubs.cs): string downloads complete later, at most one every 5 s, queued requests in
// random order, with success and error events; PlayerData is restored after join, writable
// only for the local player, with a size budget and the storage-exceeded event.
//
// The host plays frames (Time.time advances 1/60 s; each frame: at most one download
// delivered, then Compiler, ProgramLoader and ProgramSaves Update) and prints one line per
// scenario: "PASS name" or "FAIL name: what". An exception in an event is a failure (it would
// halt the UdonBehaviour in VRChat). Test-only code.
//
// usage: mono WorldHost.exe <program A> <program B> <long program>

using System;
using System.Collections.Generic;
using System.IO;
using System.Reflection;
using System.Text;
using UnityEngine;
using UnityEngine.UI;
using VRC.SDK3.Components;
using VRC.SDK3.Persistence;
using VRC.SDK3.StringLoading;
using VRC.SDKBase;
using VRC.Udon.Common.Interfaces;

public sealed class Download : IVRCStringDownload
{
    public string Result { get; set; }
    public byte[] ResultBytes { get { return raw == null ? null : (byte[])raw.Clone(); } }
    public string Error { get; set; }
    public int ErrorCode { get; set; }
    public VRCUrl Url { get; set; }
    public IUdonEventReceiver UdonBehaviour { get; set; }
    public byte[] raw;
}

public sealed class Answer
{
    public byte[] Bytes;  // null: an error
    public int Code;
    public string Error;
}

public static class WorldHost
{
    static Compiler compiler;
    static ProgramLoader loader;
    static ProgramSaves saves;
    static Random rng;
    static readonly Dictionary<string, Answer> web = new Dictionary<string, Answer>();
    static float nextServe;
    static bool servicePaused;
    static bool allowUntrusted;
    static readonly List<string> failures = new List<string>();
    static int sets;  // InputField text changes are not observable; we compare texts

    static string A, B, LONG;

    // ------------------------------------------------------------------ world

    static void Setup(int seed, string initialText)
    {
        rng = new Random(seed);
        UnityEngine.Time.time = 0f;
        nextServe = 0f;
        servicePaused = false;
        allowUntrusted = false;
        VRCStringDownloader.Queue.Clear();
        PlayerData.Data.Clear();
        PlayerData.Budget = 100 * 1024;
        PlayerData.StorageExceeded = false;
        PlayerData.Writes = 0;
        web.Clear();
        failures.Clear();
        compiler = new Compiler();
        compiler.input = new InputField();
        compiler.input.text = initialText;
        compiler.output = new Text();
        compiler.screenMat = new Material();
        loader = new ProgramLoader();
        loader.urlField = new VRCUrlInputField();
        loader.input = compiler.input;
        loader.output = compiler.output;
        loader.compiler = compiler;
        saves = new ProgramSaves();
        saves.input = compiler.input;
        saves.output = compiler.output;
        saves.compiler = compiler;
        saves.loader = loader;
        Call(saves, "Start");
    }

    static void Call(object target, string method)
    {
        MethodInfo m = target.GetType().GetMethod(method, BindingFlags.Instance | BindingFlags.Public | BindingFlags.NonPublic);
        Event(() => m.Invoke(target, null), target.GetType().Name + "." + method);
    }

    static void Event(Action a, string what)
    {
        try
        {
            a();
        }
        catch (Exception e)
        {
            Exception inner = e is TargetInvocationException && e.InnerException != null ? e.InnerException : e;
            failures.Add("exception in " + what + ": " + inner.GetType().Name + ": " + inner.Message);
        }
    }

    static bool Trusted(string url)
    {
        Uri u;
        if (!Uri.TryCreate(url, UriKind.Absolute, out u)) return false;
        string h = u.Host.ToLowerInvariant();
        return h == "gist.githubusercontent.com" || h == "pastebin.com" || h.EndsWith(".github.io")
            || h.EndsWith(".disbridge.com") || h.EndsWith(".vrcdn.cloud");
    }

    // VRChat's string loader: the next download at most every 5 s, a random queued request.
    static void Serve(bool force)
    {
        List<PendingDownload> q = VRCStringDownloader.Queue;
        if (q.Count == 0 || (!force && (servicePaused || UnityEngine.Time.time < nextServe))) return;
        int k = rng.Next(q.Count);
        PendingDownload p = q[k];
        q.RemoveAt(k);
        Deliver(p);
    }

    static void Deliver(PendingDownload p)
    {
        nextServe = UnityEngine.Time.time + 5f;
        string url = p.Url.Get();
        Download d = new Download();
        d.Url = p.Url;
        d.UdonBehaviour = p.Receiver;
        Answer a;
        if (!Trusted(url) && !allowUntrusted)
        {
            d.ErrorCode = 0;
            d.Error = "Untrusted URL";  // the docs do not say; the loader does not rely on it
        }
        else if (!web.TryGetValue(url, out a))
        {
            d.ErrorCode = 404;
            d.Error = "Not Found";
        }
        else if (a.Bytes == null)
        {
            d.ErrorCode = a.Code;
            d.Error = a.Error;
        }
        else
        {
            d.raw = a.Bytes;
            d.Result = new UTF8Encoding(false, false).GetString(a.Bytes);
        }
        UdonSharp.UdonSharpBehaviour target = (UdonSharp.UdonSharpBehaviour)p.Receiver;
        if (d.Error == null)
            Event(() => target.OnStringLoadSuccess(d), "OnStringLoadSuccess");
        else
            Event(() => target.OnStringLoadError(d), "OnStringLoadError");
    }

    static void Frame()
    {
        UnityEngine.Time.time += 1f / 60f;
        Serve(false);
        Call(compiler, "Update");
        Call(loader, "Update");
        Call(saves, "Update");
        if (PlayerData.StorageExceeded)
        {
            PlayerData.StorageExceeded = false;
            Event(() => saves.OnPlayerDataStorageExceeded(Networking.LocalPlayer), "OnPlayerDataStorageExceeded");
        }
    }

    static void Frames(int n)
    {
        for (int i = 0; i < n; i++) Frame();
    }

    // Frames until nothing is queued, pending or compiling (at most ~2 min of world time).
    static void Settle()
    {
        for (int i = 0; i < 7200; i++)
        {
            Frame();
            if (VRCStringDownloader.Queue.Count == 0 && !compiler.compiling && !Pending()) return;
        }
        failures.Add("did not settle");
    }

    static bool Pending()
    {
        return (bool)typeof(ProgramLoader).GetField("compileDue", BindingFlags.Instance | BindingFlags.NonPublic).GetValue(loader);
    }

    static void Put(string url, string text)
    {
        web[url] = new Answer { Bytes = Encoding.UTF8.GetBytes(text) };
    }

    static void Load(string url)
    {
        loader.urlField.SetUrl(new VRCUrl(url));
        Call(loader, "LoadFromUrl");
    }

    static string Box() { return compiler.input.text; }
    static string Out() { return compiler.output.text; }

    static void Expect(bool ok, string what)
    {
        if (!ok) failures.Add(what + " [box " + Short(Box()) + "; output " + Short(Out()) + "]");
    }

    static void ExpectOut(string part)
    {
        Expect(Out() != null && Out().Contains(part), "output lacks '" + part + "'");
    }

    static string Short(string s)
    {
        if (s == null) return "null";
        s = s.Replace("\n", "\\n");
        return s.Length > 160 ? s.Substring(0, 160) + "..." : s;
    }

    static void Restore(Dictionary<string, string> data)
    {
        PlayerData.Restore(Networking.LocalPlayer, data);
        Event(() => saves.OnPlayerRestored(Networking.LocalPlayer), "OnPlayerRestored");
    }

    static void Report(string name)
    {
        Console.WriteLine(failures.Count == 0 ? "PASS " + name : "FAIL " + name + ": " + string.Join(" | ", failures.ToArray()));
    }

    // ------------------------------------------------------------------ scenarios

    const string GIST = "https://gist.githubusercontent.com/someone/abc/raw/prog.psl";
    const string GIST2 = "https://gist.githubusercontent.com/someone/def/raw/other.psl";
    const string TYPED = "// my own text\n1";

    static void LoadCompiles()
    {
        Setup(1, TYPED);
        Put(GIST, A);
        Load(GIST);
        ExpectOut("Loading");
        Expect(Box() == TYPED, "the box changed before the download arrived");
        Settle();
        Expect(Box() == A, "the loaded text is not in the box");
        ExpectOut("compiled:");
        Expect(compiler.screenMat.ArrayUploads > 0, "nothing uploaded");
        Expect(compiler.ownCompiles == 1 && compiler.ownCompiledText == A, "not compiled as the player's own");
        Call(loader, "BringBack");
        Expect(Box() == TYPED, "bring-back did not restore the typed text");
        Call(loader, "BringBack");
        Expect(Box() == A, "a second bring-back did not swap back");
        Report("load_compiles");
    }

    static void ErrorCase(string name, string url, Answer answer, string[] parts, bool allow)
    {
        Setup(2, TYPED);
        allowUntrusted = allow;
        if (answer != null) web[url] = answer;
        Load(url);
        Settle();
        Expect(Box() == TYPED, "the text box changed");
        Expect(compiler.ownCompiles == 0 && compiler.screenMat.ArrayUploads == 0, "something compiled");
        foreach (string p in parts) ExpectOut(p);
        Report(name);
    }

    static void Errors()
    {
        ErrorCase("error_404", GIST, new Answer { Code = 404, Error = "Not Found" },
                  new[] { "HTTP 404", "Not Found", "unchanged" }, false);
        ErrorCase("error_untrusted_host", "https://raw.githubusercontent.com/x/y/main/p.psl", null,
                  new[] { "raw.githubusercontent.com is not one of VRChat's trusted hosts",
                          "gist.githubusercontent.com", "pastebin.com", "Allow Untrusted URLs" }, false);
        ErrorCase("error_html_page", "https://pastebin.com/AbCd",
                  new Answer { Bytes = Encoding.UTF8.GetBytes("\n  <!DOCTYPE html><html><head></head><body>" + new string('x', 30000) + "</body></html>") },
                  new[] { "web page", "raw URL", "pastebin.com/raw/" }, false);
        ErrorCase("error_too_long", GIST, new Answer { Bytes = Encoding.UTF8.GetBytes(new string(' ', 16000) + "1") },
                  new[] { "16001 characters", "at most 16000" }, false);
        ErrorCase("error_invalid_utf8", GIST, new Answer { Bytes = new byte[] { 0x31, 0x2B, 0xFF, 0xFE, 0x32 } },
                  new[] { "not valid UTF-8" }, false);
        ErrorCase("error_empty", GIST, new Answer { Bytes = new byte[0] }, new[] { "empty" }, false);
        // a U+FFFD written in the file (valid UTF-8) is not an encoding error
        Setup(3, TYPED);
        Put(GIST, "// \uFFFD\n" + A);
        Load(GIST);
        Settle();
        Expect(Box() == "// \uFFFD\n" + A, "a valid U+FFFD was taken for invalid UTF-8");
        Report("valid_replacement_character");
        // an untrusted host loads for a player who allowed untrusted URLs
        Setup(4, TYPED);
        allowUntrusted = true;
        Put("https://example.org/p.psl", A);
        Load("https://example.org/p.psl");
        Settle();
        Expect(Box() == A, "an allowed untrusted URL did not load");
        Report("untrusted_allowed");
        // no URL typed
        Setup(5, TYPED);
        Load("");
        Frames(10);
        Expect(Box() == TYPED && VRCStringDownloader.Queue.Count == 0, "an empty URL was requested");
        ExpectOut("Paste the raw URL");
        Report("empty_url");
    }

    static void TwoLoads()
    {
        Setup(6, TYPED);
        Put(GIST, A);
        Put(GIST2, B);
        Load(GIST);
        Load(GIST2);
        ExpectOut("Still loading");
        Expect(VRCStringDownloader.Queue.Count == 1, "the second Load made a request");
        Settle();
        Expect(Box() == A, "the first load is not what arrived");
        Load(GIST2);
        Settle();
        Expect(Box() == B, "a Load after the first finished did not work");
        Report("two_loads_in_a_row");

        // a lost request: after the retry time a new Load replaces it; the old answer, when it
        // finally comes (in any order), is dropped
        Setup(7, TYPED);
        Put(GIST, A);
        Put(GIST2, B);
        servicePaused = true;
        Load(GIST);
        Frames(60 * 31);
        Load(GIST2);
        Expect(VRCStringDownloader.Queue.Count == 2, "the retry did not make a new request");
        PendingDownload older = VRCStringDownloader.Queue[0];
        PendingDownload newer = VRCStringDownloader.Queue[1];
        VRCStringDownloader.Queue.Clear();
        Deliver(older);
        Expect(Box() == TYPED, "a stale result changed the box");
        Deliver(newer);
        Settle();
        Expect(Box() == B, "the newest request's result was not used");
        Report("stale_result_dropped");
    }

    static void LoadDuringCompile()
    {
        Setup(8, LONG);
        Put(GIST, A);
        servicePaused = true;
        Load(GIST);
        Call(compiler, "Compile");
        Frame();
        Expect(compiler.compiling, "the long program compiled in one frame (the scenario needs a sliced compile)");
        Serve(true);
        Settle();
        Expect(Box() == A, "the load arriving during a compile did not reach the box");
        Expect(compiler.ownCompiledText == A, "the last compile is not the loaded program");
        ExpectOut("compiled:");
        Call(loader, "BringBack");
        Expect(Box() == LONG, "the program being compiled was not kept for bring-back");
        Report("load_during_compile");
    }

    static void Gallery()
    {
        Setup(9, TYPED);
        Put(GIST2, B);
        loader.galleryTitles = new[] { "Pong", "Spiral" };
        loader.galleryUrls = new[] { new VRCUrl(GIST), new VRCUrl(GIST2) };
        Call(loader, "Gallery1");
        ExpectOut("\"Spiral\"");
        Settle();
        Expect(Box() == B, "the gallery entry did not load");
        ExpectOut("compiled:");
        Call(loader, "Gallery0");
        Settle();
        ExpectOut("\"Pong\"");
        ExpectOut("HTTP 404");
        Expect(Box() == B, "a failed gallery load changed the box");
        Call(loader, "Gallery7");
        ExpectOut("Gallery entry 8 has no URL");
        Report("gallery_entry");
    }

    static void RestoreOnJoin()
    {
        // empty box: the last program comes back, not compiled, not shared
        Setup(10, "");
        Call(saves, "Save1");
        ExpectOut("not arrived yet");
        Frames(30);
        Restore(new Dictionary<string, string> { { "psl.last", A } });
        Frames(120);
        Expect(Box() == A, "the last program was not put back into the empty box");
        Expect(!compiler.compiling && compiler.screenMat.ArrayUploads == 0 && compiler.ownCompiles == 0,
               "the restored program compiled by itself");
        Report("restore_into_empty_box");

        // the world's starting text counts as nothing of theirs
        Setup(11, "// the world's default program\n1");
        Restore(new Dictionary<string, string> { { "psl.last", A } });
        Expect(Box() == A, "the last program did not replace the world's starting text");
        Report("restore_over_starting_text");

        // a program received from others (a late joiner gets the instance's program) is
        // not theirs either; the received program keeps running (no compile, no upload)
        Setup(17, "");
        compiler.input.text = B;
        Call(compiler, "CompileReceived");
        Settle();
        int uploads = compiler.screenMat.ArrayUploads;
        Restore(new Dictionary<string, string> { { "psl.last", A } });
        Frames(60);
        Expect(Box() == A, "the last program did not replace a received program");
        Expect(compiler.screenMat.ArrayUploads == uploads && compiler.ownCompiles == 0, "the restore compiled");
        Report("restore_over_received_program");

        // typed text is never replaced; Last brings the program in on request
        Setup(12, "");
        compiler.input.text = TYPED;
        Restore(new Dictionary<string, string> { { "psl.last", A } });
        Frames(30);
        Expect(Box() == TYPED, "typed text was replaced on restore");
        ExpectOut("left as it is");
        Call(saves, "LoadLast");
        Settle();
        Expect(Box() == A, "Last did not load the last program");
        Call(loader, "BringBack");
        Expect(Box() == TYPED, "typed text not kept when Last loaded");
        Report("restore_with_typed_text");

        // another player's restore does not touch this player's box
        Setup(13, "");
        VRCPlayerApi other = new VRCPlayerApi();
        PlayerData.Restore(other, new Dictionary<string, string> { { "psl.last", B } });
        Event(() => saves.OnPlayerRestored(other), "OnPlayerRestored");
        Expect(Box() == "", "a remote player's data reached the box");
        Report("restore_remote_player_ignored");
    }

    static void Slots()
    {
        Setup(14, "");
        Restore(new Dictionary<string, string>());
        string[] texts = { A, B, "// three\n" + A, "// four\n" + B };
        for (int n = 1; n <= 4; n++)
        {
            compiler.input.text = texts[n - 1];
            Call(saves, "Save" + n);
            ExpectOut("Saved to slot " + n);
        }
        for (int n = 1; n <= 4; n++)
        {
            compiler.input.text = "";
            Call(saves, "LoadSlot" + n);
            Settle();
            Expect(Box() == texts[n - 1], "slot " + n + " did not load back");
            ExpectOut("compiled:");
            Expect(PlayerData.GetString(Networking.LocalPlayer, "psl.slot" + n) == texts[n - 1], "slot " + n + " key");
        }
        Expect(PlayerData.GetString(Networking.LocalPlayer, "psl.last") == texts[3], "psl.last is not the last compiled program");
        // an empty box clears a slot (keys cannot be deleted: the value is "")
        compiler.input.text = "";
        Call(saves, "Save2");
        ExpectOut("Slot 2 is now empty");
        Expect(PlayerData.GetString(Networking.LocalPlayer, "psl.slot2") == "", "a cleared slot is not an empty string");
        Call(saves, "LoadSlot2");
        ExpectOut("Slot 2 is empty");
        foreach (string key in PlayerData.Data[Networking.LocalPlayer].Keys)
            Expect(key.StartsWith("psl."), "key without the psl. prefix: " + key);
        // a compile of text received from another player is not kept as this player's
        compiler.input.text = "// from someone else\n" + B;
        Call(compiler, "CompileReceived");
        Settle();
        Expect(PlayerData.GetString(Networking.LocalPlayer, "psl.last") == texts[3], "a received program was kept as the player's own");
        Report("save_and_load_every_slot");
    }

    static void StorageExceeded()
    {
        // over this prefab's own budget: not saved, old data kept
        Setup(15, "");
        string wide = new string('\u00e9', 15000);  // 30,000 UTF-8 bytes
        Restore(new Dictionary<string, string> { { "psl.slot1", "// " + wide }, { "psl.slot2", "// " + wide }, { "psl.slot3", "// " + wide } });
        compiler.input.text = "// " + wide;
        Call(saves, "Save4");
        ExpectOut("Not saved: slot 4");
        Expect(!PlayerData.HasKey(Networking.LocalPlayer, "psl.slot4"), "an over-budget save was written");
        Expect(PlayerData.GetString(Networking.LocalPlayer, "psl.slot1") == "// " + wide, "old data lost");
        Report("save_over_budget");

        // VRChat refuses (other data of the player in this world): OnPlayerDataStorageExceeded
        Setup(16, "");
        Restore(new Dictionary<string, string> { { "other.prefab", new string('x', 95000) }, { "psl.slot1", A } });
        compiler.input.text = LONG;
        Call(saves, "Save1");
        Frame();
        ExpectOut("could not store your programs");
        Expect(PlayerData.GetString(Networking.LocalPlayer, "psl.slot1") == A, "old data lost after storage exceeded");
        Report("storage_exceeded_event");
    }

    static void SetField(object target, string name, object value)
    {
        target.GetType().GetField(name, BindingFlags.Instance | BindingFlags.Public | BindingFlags.NonPublic)
            .SetValue(target, value);
    }

    // Sharing (SyncCode, issue 23's rules) and loads: a followed share never replaces a
    // loaded program (a load is the player's own text), and runs on the screen only.
    static void ShareAfterLoad()
    {
        Setup(18, "// the world's default program\n1");
        SyncCode sync = new SyncCode();
        sync.input = compiler.input;
        sync.compiler = compiler;
        Call(sync, "Start");
        Settle();
        Put(GIST, A);
        Load(GIST);
        Settle();
        Expect(Box() == A, "the load did not arrive");
        Expect(sync.SerializationRequests == 0, "a load was shared with the others");
        SetField(sync, "syncedSource", B);
        SetField(sync, "syncedBy", "someone else");
        SetField(sync, "syncedSerial", 1);
        Event(() => sync.OnDeserialization(), "OnDeserialization");
        Settle();
        Expect(Box() == A, "a followed share replaced the loaded program");
        Expect(compiler.ownCompiledText == A, "the share counted as the player's own compile");
        Report("share_after_load_keeps_loaded_text");
    }

    public static int Main(string[] args)
    {
        A = File.ReadAllText(args[0]);
        B = File.ReadAllText(args[1]);
        LONG = File.ReadAllText(args[2]);
        LoadCompiles();
        Errors();
        TwoLoads();
        LoadDuringCompile();
        Gallery();
        RestoreOnJoin();
        Slots();
        StorageExceeded();
        ShareAfterLoad();
        return 0;
    }
}
