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
using PSL.Shaderception;

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
    static SyncCode sync;
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
        PlayerData.Reads = 0;
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
        // the editor's one history (as both prefabs wire it); its Start is not run here, so
        // the box's starting text counts as typed unless a scenario runs Start
        sync = new SyncCode();
        sync.input = compiler.input;
        sync.compiler = compiler;
        sync.sharedInfo = new Text();
        loader.share = sync;
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
        // psl.last is written at most once per interval: the first load's compile went at
        // once, the newest is due and goes when the interval has passed
        Expect(PlayerData.GetString(Networking.LocalPlayer, "psl.last") == texts[0], "psl.last was written more than once in the interval");
        UnityEngine.Time.time += LastInterval();
        Frame();
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

    static float LastInterval()
    {
        return (float)typeof(ProgramSaves).GetField("LAST_INTERVAL", BindingFlags.NonPublic | BindingFlags.Static).GetRawConstantValue();
    }

    static int HistoryDepth()
    {
        return (int)typeof(SyncCode).GetField("HISTORY", BindingFlags.NonPublic | BindingFlags.Static).GetRawConstantValue();
    }

    static void Example(string text)
    {
        ExampleButton button = new ExampleButton();
        button.input = compiler.input;
        button.compiler = compiler;
        button.share = sync;
        button.program = text;
        Call(button, "Load");
    }

    static string Last()
    {
        return PlayerData.GetString(Networking.LocalPlayer, "psl.last");
    }

    const string MINE = "// typed by the player\nx = uv().x; float3(x, x, x)";

    // Issue 39: one history for every way text enters the editor.
    static void History()
    {
        // every source in a row (an example, a URL, a gallery entry, a slot), then Restore
        // steps back through all of them to the typed text, which compiles as the player's own
        Setup(19, "// the world's default program\n1");
        Call(sync, "Start");
        Restore(new Dictionary<string, string> { { "psl.slot1", "// slot\n" + B } });
        compiler.input.text = MINE;
        Example("float3(1, 0, 0)");
        Settle();
        Put(GIST, A);
        Load(GIST);
        Settle();
        Put(GIST2, "// gallery\n" + A);
        loader.galleryTitles = new[] { "Spiral" };
        loader.galleryUrls = new[] { new VRCUrl(GIST2) };
        Call(loader, "Gallery0");
        Settle();
        Call(saves, "LoadSlot1");
        Settle();
        Expect(Box() == "// slot\n" + B, "the slot did not load");
        string[] back = { "// gallery\n" + A, A, "float3(1, 0, 0)", MINE };
        for (int k = 0; k < back.Length; k++)
        {
            Call(k % 2 == 0 ? (object)loader : sync, k % 2 == 0 ? "BringBack" : "Restore");
            Settle();
            Expect(Box() == back[k], "step " + (k + 1) + " back is not the text before it");
        }
        Expect(compiler.ownCompiledText == MINE, "the restored typed text did not compile as the player's own");
        Expect(sync.historyNote.Contains("Your own text is back"), "Restore did not say the own text is back: " + sync.historyNote);
        // and on around: the newest load again
        Call(loader, "BringBack");
        Expect(Box() == "// slot\n" + B, "the history did not come around to the newest text");
        Report("history_across_sources");

        // two URL loads in a row keep what the player typed (issue 39's reproduction)
        Setup(20, MINE);
        Put(GIST, A);
        Put(GIST2, B);
        Load(GIST);
        Settle();
        Load(GIST2);
        Settle();
        Expect(Box() == B, "the second load did not arrive");
        Call(loader, "BringBack");
        Expect(Box() == A, "bring-back is not the first load");
        Call(loader, "BringBack");
        Settle();
        Expect(Box() == MINE, "two loads in a row lost the typed text");
        Report("two_loads_keep_typed_text");

        // however many loads follow, the typed text stays in the history
        Setup(21, MINE);
        int loads = HistoryDepth() + 4;
        for (int k = 0; k < loads; k++)
        {
            Example("// example " + k + "\nfloat3(" + k + ", 0, 0)");
        }
        Settle();
        bool found = false;
        for (int k = 0; k < HistoryDepth() && !found; k++)
        {
            Call(sync, "Restore");
            found = Box() == MINE;
        }
        Expect(found, "the typed text was dropped after " + loads + " loads");
        Settle();
        Expect(compiler.ownCompiledText == MINE, "the typed text did not compile as the player's own");
        Report("typed_text_survives_many_loads");

        // the on-visit restore goes through the history too: a load after it keeps it
        Setup(22, "// the world's default program\n1");
        Call(saves, "Start");
        Restore(new Dictionary<string, string> { { "psl.last", MINE } });
        Expect(Box() == MINE, "the last program was not put back");
        Put(GIST, A);
        Load(GIST);
        Settle();
        Call(loader, "BringBack");
        Expect(Box() == MINE, "the restored program was not kept by the load after it");
        Call(loader, "BringBack");
        Expect(Box() == "// the world's default program\n1", "the starting text was not kept by the restore");
        Call(loader, "BringBack");
        Expect(Box() == A, "bring-back did not come around");
        Report("restore_on_visit_in_history");
    }

    // Share (and Restore of the player's own text) count as the player's own compile: kept
    // as psl.last for the next visit.
    static void ShareIsOwn()
    {
        Setup(23, "// the world's default program\n1");
        Call(sync, "Start");
        Restore(new Dictionary<string, string>());
        Settle();
        compiler.input.text = MINE;
        Call(sync, "Share");
        Settle();
        Expect(sync.SerializationRequests == 1, "the share was not sent");
        Expect(compiler.ownCompiledText == MINE && compiler.ownCompiles == 1, "the share did not count as the player's own compile");
        Expect(Last() == MINE, "the shared program was not kept for the next visit");
        // a load, then Restore of the typed (shared) text: own again
        Put(GIST, A);
        Load(GIST);
        Settle();
        Expect(compiler.ownCompiledText == A, "the load did not compile as the player's own");
        UnityEngine.Time.time += LastInterval();
        Frame();
        Expect(Last() == A, "the load was not kept after the interval");
        Call(sync, "Restore");
        Settle();
        Expect(Box() == MINE && compiler.ownCompiledText == MINE, "Restore of the player's own text was not an own compile");
        UnityEngine.Time.time += LastInterval();
        Frame();
        Expect(Last() == MINE, "the restored own text was not kept for the next visit");
        Report("share_and_restore_count_as_own");
    }

    // psl.last is written at most once per interval (a scripted clock), and with a Save.
    static void Debounce()
    {
        Setup(24, "");
        Restore(new Dictionary<string, string>());
        float interval = LastInterval();
        string[] texts = { A, B, "// three\n" + A, "// four\n" + B, "// five\n" + A };
        compiler.input.text = texts[0];
        Call(compiler, "Compile");
        Settle();
        Expect(PlayerData.Writes == 1 && Last() == texts[0], "the first own compile was not written at once");
        for (int k = 1; k <= 3; k++)
        {
            UnityEngine.Time.time += interval / 5f;
            compiler.input.text = texts[k];
            Call(compiler, "Compile");
            Settle();
        }
        Expect(PlayerData.Writes == 1 && Last() == texts[0], "an own compile within the interval was written (" + PlayerData.Writes + " writes)");
        UnityEngine.Time.time += interval / 2f;  // past the interval since the first write
        Frame();
        Expect(PlayerData.Writes == 2 && Last() == texts[3], "the newest compile was not written when the interval passed");
        Frames(600);
        Expect(PlayerData.Writes == 2, "psl.last was written again without a compile");
        // a compile due, then a Save: the slot and the due psl.last go together
        compiler.input.text = texts[4];
        Call(compiler, "Compile");
        Settle();
        Expect(PlayerData.Writes == 2, "a compile right after a write was written");
        Call(saves, "Save1");
        Expect(PlayerData.Writes == 4 && Last() == texts[4], "a Save did not take the due psl.last with it");
        ExpectOut("Saved to slot 1");
        Report("last_write_debounced");
    }

    // A stored text longer than the code box: read with TryGetString, cut with a message,
    // and the cut copy is never written back.
    static void TooLong()
    {
        string limitText = ((int)typeof(ProgramSaves).GetField("SOURCE_LIMIT", BindingFlags.NonPublic | BindingFlags.Static).GetRawConstantValue()).ToString();
        int limit = int.Parse(limitText);
        string longLast = "// last\n" + A + new string(' ', limit);
        string longSlot = "// slot\n" + B + new string(' ', limit);
        Setup(25, "");
        Restore(new Dictionary<string, string> { { "psl.last", longLast }, { "psl.slot1", longSlot } });
        Expect(PlayerData.Reads > 0, "PlayerData was not read with TryGetString");
        Expect(Box() == longLast.Substring(0, limit), "the stored text was not cut to the box's limit");
        ExpectOut(longLast.Length + " characters");
        ExpectOut("only its first " + limitText);
        Call(compiler, "Compile");
        Settle();
        UnityEngine.Time.time += LastInterval();
        Frames(2);
        Expect(Last() == longLast && PlayerData.Writes == 0, "the cut copy was written over psl.last");
        Call(saves, "Save2");
        ExpectOut("Not saved");
        Expect(!PlayerData.HasKey(Networking.LocalPlayer, "psl.slot2"), "the cut copy was saved");
        Call(saves, "LoadSlot1");
        Expect(Box() == longSlot.Substring(0, limit), "the slot was not cut to the box's limit");
        ExpectOut("Slot 1 has " + longSlot.Length + " characters");
        Settle();
        Call(saves, "Save1");
        Expect(PlayerData.GetString(Networking.LocalPlayer, "psl.slot1") == longSlot, "the cut copy was saved over the slot");
        // edited, it is the player's text again
        compiler.input.text = Box() + "\n// edited";
        Call(saves, "Save1");
        ExpectOut("Saved to slot 1");
        Report("stored_text_too_long");
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
        History();
        ShareIsOwn();
        Debounce();
        TooLong();
        return 0;
    }
}
